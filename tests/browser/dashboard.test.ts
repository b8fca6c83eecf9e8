// The host dashboard in Chromium: sign in, act on a request (the guest is emailed), manage keys, sign out.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { apiDocument } from '../helpers/fixtures';
import { startServer, type TestServer } from '../helpers/server';
import { launchChromium } from './pages';

/** The dashboard in the words of its pages. */
class Dashboard {
  constructor(
    readonly page: Page,
    readonly origin: string,
  ) {}

  async signIn(email: string, password: string) {
    await this.page.goto(`${this.origin}/sign-in`);
    await this.page.getByLabel('Email').fill(email);
    await this.page.getByLabel('Password').fill(password);
    await this.page.getByRole('button', { name: 'Sign in' }).click();
  }
  signInError() {
    return this.page.locator('form p.error').textContent();
  }
  booking(guestName: string) {
    return this.page.locator('.card', { hasText: guestName });
  }
  async open(path: string) {
    await this.page.goto(`${this.origin}${path}`);
  }
}

describe('dashboard (chromium)', () => {
  let server: TestServer;
  let browser: Browser;

  before(async () => {
    const doc = apiDocument();
    Object.assign(doc.hosts[0] as object, { password: 'ada-password-1' });
    Object.assign(doc.hosts[1] as object, { password: 'bob-password-1' });
    server = await startServer('pglite', doc, { EMAIL_DISPATCH_INTERVAL_MS: '200' });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  const api = (path: string, key: string, init: RequestInit = {}) =>
    fetch(`${server.api}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    });

  test('a host signs in, approves a request, and the guest is emailed; the dashboard is private', async () => {
    const secret = server.seed.hosts.ada?.api_keys.secret as string;
    const start = new Date(Date.now() + 12 * 86_400_000);
    start.setUTCHours(15, 0, 0, 0);
    const created = await api('/bookings', secret, {
      method: 'POST',
      body: JSON.stringify({
        bookingPageId: server.seed.hosts.ada?.pages.approval?.id,
        guestName: 'Greta <b>Garbo</b>',
        guestEmail: 'greta@example.com',
        startTime: start.toISOString(),
        endTime: new Date(start.getTime() + 3_600_000).toISOString(),
      }),
    });
    assert.equal(created.status, 201);
    const bookingId = (await created.json()).data.id;

    const context = await browser.newContext();
    const dashboard = new Dashboard(await context.newPage(), server.origin);
    await dashboard.open('/dashboard');
    assert.match(dashboard.page.url(), /\/sign-in$/, 'signed-out visitors are sent to sign in');

    await dashboard.signIn('ada@example.com', 'not-her-password');
    assert.equal(await dashboard.signInError(), 'Wrong email or password.');
    await dashboard.signIn('ada@example.com', 'ada-password-1');
    await dashboard.page.waitForURL(/\/dashboard$/);

    const card = dashboard.booking('Greta <b>Garbo</b>');
    assert.equal(await card.locator('.status').textContent(), 'pending');
    await card.getByRole('button', { name: 'Approve' }).click();
    await card.getByRole('button', { name: 'Cancel' }).waitFor();
    assert.equal(await card.locator('.status').textContent(), 'confirmed');

    const booking = (await (await api(`/bookings/${bookingId}`, secret)).json()).data;
    assert.equal(booking.status, 'confirmed');
    assert.equal(booking.sync_status, 'not_synced', 'recorded: no event was needed');
    assert.ok(booking.last_synced_at, 'the host acted in the dashboard, so the sync state was recorded');

    await dashboard.open('/dashboard/mailbox');
    const row = dashboard.page.locator('tr', { hasText: 'greta@example.com' });
    await row.getByRole('link', { name: /^Confirmed: Approval/ }).click();
    const body = await dashboard.page.locator('pre.mail-body').first().textContent();
    assert.match(body ?? '', /Ada Lovelace confirmed your booking/);
    assert.match(body ?? '', /Greta <b>Garbo<\/b>/, 'guest text shown as text');

    await dashboard.page.getByRole('button', { name: 'Sign out' }).click();
    await dashboard.page.waitForURL(/\/sign-in$/);
    await dashboard.open('/dashboard');
    assert.match(dashboard.page.url(), /\/sign-in$/);
    await context.close();
  });

  test('a new key is shown once, works, and stops working when revoked; six an hour is refused', async () => {
    const context = await browser.newContext();
    const dashboard = new Dashboard(await context.newPage(), server.origin);
    await dashboard.signIn('bob@example.com', 'bob-password-1');
    await dashboard.page.waitForURL(/\/dashboard$/);
    await dashboard.open('/dashboard/keys');

    await dashboard.page.getByLabel('Name').fill('website');
    await dashboard.page.getByRole('button', { name: 'Create key' }).click();
    const shown = await dashboard.page.getByRole('status').locator('code').textContent();
    assert.match(shown ?? '', /^service_pk_/);
    assert.equal((await api('/booking-pages', shown as string)).status, 200);

    // Bob's import made 2 keys this hour and this is the third: two more are allowed, the sixth is not.
    for (const name of ['two', 'three']) {
      await dashboard.page.getByLabel('Name').fill(name);
      await dashboard.page.getByRole('button', { name: 'Create key' }).click();
      await dashboard.page.getByRole('status').filter({ hasText: name }).waitFor();
    }
    await dashboard.page.getByLabel('Name').fill('six');
    await dashboard.page.getByRole('button', { name: 'Create key' }).click();
    await dashboard.page.getByText('You can create 5 keys an hour').waitFor();

    await dashboard.page.reload();
    await dashboard.page.locator('tr', { hasText: 'website' }).getByRole('button', { name: 'Revoke' }).click();
    await dashboard.page.locator('tr', { hasText: 'website' }).getByText('revoked').waitFor();
    const revoked = await api('/booking-pages', shown as string);
    assert.equal(revoked.status, 401);
    assert.deepEqual(await revoked.json(), { error: 'API key has been revoked' });
    await context.close();
  });
});
