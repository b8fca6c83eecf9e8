// Page objects of the guest flow: what a guest does on /{username}/{slug}, in the words of the page, so the specs
// read as steps and the selectors live in one place.
import { type Browser, type BrowserContext, chromium, type Locator, type Page, type Response } from 'playwright-core';
import { formatDayLabel } from '../../lib/hosted/calendar';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

export type GuestOptions = { timezoneId?: string; javaScriptEnabled?: boolean };

/** A fresh guest: own cookies, a browser time zone (Berlin unless told), English UI. */
export async function newGuest(browser: Browser, options: GuestOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({
    timezoneId: options.timezoneId ?? 'Europe/Berlin',
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    locale: 'en-US',
    viewport: { width: 1000, height: 900 },
  });
  context.setDefaultTimeout(10_000);
  return context;
}

export class BookingPage {
  constructor(
    readonly page: Page,
    readonly origin: string,
  ) {}

  static async create(context: BrowserContext, origin: string): Promise<BookingPage> {
    return new BookingPage(await context.newPage(), origin);
  }

  /**
   * Opens /{path}?{query}. Without `tz` in the query and with JavaScript on, waits until the page has taken the
   * browser's zone into the URL (it replaces the URL once on the first visit).
   */
  async open(path: string, query: Record<string, string> = {}, waitForZone = true): Promise<Response | null> {
    const search = new URLSearchParams(query).toString();
    const response = await this.page.goto(`${this.origin}${path}${search ? `?${search}` : ''}`);
    if (waitForZone && !('tz' in query) && response?.ok()) {
      await this.page.waitForURL((url) => url.searchParams.has('tz'));
    }
    return response;
  }

  get title(): Locator {
    return this.page.getByRole('heading', { level: 1 });
  }

  get description(): Locator {
    return this.page.locator('.description');
  }

  get timeZone(): Locator {
    return this.page.getByLabel('Time zone');
  }

  /** Clicks the day in the month grid, moving to later months as needed. */
  async pickDate(day: string): Promise<void> {
    const link = this.page.getByRole('link', { name: formatDayLabel(day), exact: true });
    for (let i = 0; i < 3 && !(await link.isVisible()); i++) {
      await this.page.getByRole('link', { name: 'Next month' }).click();
      await this.page.waitForURL((url) => url.searchParams.has('month'));
    }
    await link.click();
    await this.page.waitForURL((url) => url.searchParams.get('date') === day);
  }

  get slotLinks(): Locator {
    return this.page.locator('ul.slots a.slot');
  }

  /** Slot starts (UTC ISO, as listSlots gives them) in the order shown. */
  async slotStarts(): Promise<string[]> {
    const hrefs = await this.slotLinks.evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
    return hrefs.map((href) => new URL(href, 'http://x').searchParams.get('slot') ?? '');
  }

  async slotLabels(): Promise<string[]> {
    return (await this.slotLinks.allTextContents()).map((text) => text.trim());
  }

  /** Picks the slot starting at `start` (a listSlots `start`); the booking form appears. */
  async pickSlot(start: string): Promise<void> {
    await this.page.locator(`ul.slots a.slot[href*="slot=${encodeURIComponent(start)}"]`).click();
    await this.page.waitForURL((url) => url.searchParams.get('slot') === start);
    await this.form.waitFor();
  }

  get form(): Locator {
    return this.page.locator('form.booking-form');
  }

  get submitButton(): Locator {
    return this.form.getByRole('button');
  }

  get error(): Locator {
    return this.form.getByRole('alert');
  }

  /** Fills the guest's details; `answers` by question label: text for inputs and selects, true for checkboxes. */
  async fill(details: { name?: string; email?: string; answers?: Record<string, string | boolean> }): Promise<void> {
    if (details.name !== undefined) await this.form.getByLabel('Your name').fill(details.name);
    if (details.email !== undefined) await this.form.getByLabel('Email', { exact: true }).fill(details.email);
    for (const [label, value] of Object.entries(details.answers ?? {})) {
      const field = this.form.getByLabel(label);
      if (typeof value === 'boolean') await field.setChecked(value);
      else if ((await field.evaluate((el) => el.tagName)) === 'SELECT') await field.selectOption(value);
      else await field.fill(value);
    }
  }

  async submit(): Promise<void> {
    await this.submitButton.click();
  }

  /** Submits and waits for the confirmation page; returns the booking id from its URL. */
  async submitAndConfirm(): Promise<string> {
    await this.submit();
    // Without JavaScript the slot link's #book fragment survives the redirect; it does no harm there.
    await this.page.waitForURL(/\/booked\/[0-9a-f-]{36}(#.*)?$/);
    return new URL(this.page.url()).pathname.split('/').at(-1) as string;
  }

  /** The message next to the access-code form. */
  get accessError(): Locator {
    return this.page.locator('.form-error');
  }

  /** The access-code form of a private page. */
  async enterAccessCode(code: string): Promise<void> {
    await this.page.getByLabel('Access code').fill(code);
    await this.page.getByRole('button', { name: 'Continue' }).click();
    await this.page.waitForLoadState();
  }
}
