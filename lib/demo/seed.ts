import { createApiKey } from '../api-keys/mutations';
import type { Db, Sql } from '../db/client';
import { importDocument } from '../import/import';

export const DEMO_USERNAME = 'demo';

const DEMO_KEY_NAMES = ['demo secret', 'demo publishable'];

/**
 * Creates the demo host once (pages, availability, a busy event) and, on every call, a fresh pair of demo keys:
 * key secrets are stored only as hashes, so the previous pair cannot be shown again and is revoked instead.
 */
export async function seedDemo(db: Db): Promise<{ created: boolean; secretKey: string; publishableKey: string }> {
  return db.transaction(async (tx) => {
    const existing = await tx.query<{ id: string }>('select id from accounts where username = $1', [DEMO_USERNAME]);
    let accountId = existing.rows[0]?.id;
    const created = !accountId;
    if (!accountId) {
      const result = await importDocument(tx, demoDocument());
      accountId = result.hosts[DEMO_USERNAME]?.id as string;
    }
    await tx.query(
      `update api_keys set revoked_at = now() where account_id = $1 and name = any($2) and revoked_at is null`,
      [accountId, DEMO_KEY_NAMES],
    );
    const keys = await importKeys(tx, accountId);
    return { created, ...keys };
  });
}

async function importKeys(tx: Sql, accountId: string) {
  const secret = await createApiKey(tx, accountId, { name: 'demo secret', type: 'secret', revoked: false });
  const publishable = await createApiKey(tx, accountId, {
    name: 'demo publishable',
    type: 'publishable',
    revoked: false,
  });
  return { secretKey: secret.key, publishableKey: publishable.key };
}

function demoDocument() {
  const tomorrow = new Date(Date.now() + 24 * 3600_000).toISOString().slice(0, 10);
  return {
    hosts: [
      {
        email: 'demo@example.com',
        password: 'demo-password',
        username: DEMO_USERNAME,
        full_name: 'Dana Demo',
        bio: 'A demo host. Book a call to see the guest flow.',
        timezone: 'Europe/Berlin',
        availability: [
          {
            name: 'Working hours',
            weekly: Object.fromEntries(
              ['mon', 'tue', 'wed', 'thu', 'fri'].map((day) => [
                day,
                [
                  ['09:00', '12:00'],
                  ['13:00', '17:00'],
                ],
              ]),
            ),
            overrides: {},
          },
        ],
        pages: [
          {
            slug: 'intro',
            title: 'Intro call',
            description: 'A **30 minute** call to get to know each other.',
            duration_minutes: 30,
            buffer_time_minutes: 10,
            auto_generate_meet_link: true,
            questions: [
              { question_text: 'What would you like to talk about?', question_type: 'textarea', is_required: true },
              { question_text: 'Team size', question_type: 'select', options: ['1-10', '11-50', '51+'] },
            ],
          },
          {
            slug: 'consulting',
            title: 'Consulting session',
            description: 'One hour, confirmed by the host.',
            duration_minutes: 60,
            booking_type: 'approval',
            max_days_ahead: 30,
          },
        ],
        calendar_events: [
          { start: `${tomorrow}T12:00:00Z`, end: `${tomorrow}T12:45:00Z`, title: 'Busy (synced calendar)' },
        ],
      },
    ],
  };
}
