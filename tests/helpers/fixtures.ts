/** The admin import example of the foundation issue, with dates in the future. */
export function exampleDocument() {
  const year = new Date().getUTCFullYear() + 1;
  return {
    hosts: [
      {
        email: 'ada@example.com',
        password: 'correct horse battery',
        username: 'ada',
        full_name: 'Ada',
        bio: null,
        avatar_url: null,
        timezone: 'America/New_York',
        availability: [
          {
            name: 'Working hours',
            weekly: {
              mon: [['09:00', '17:00']],
              tue: [
                ['09:00', '12:00'],
                ['13:00', '17:00'],
              ],
            },
            overrides: { [`${year}-12-24`]: [] },
          },
        ],
        pages: [
          {
            slug: 'intro',
            title: 'Intro',
            description: '**md**',
            duration_minutes: 30,
            booking_type: 'direct',
            max_days_ahead: 60,
            buffer_time_minutes: 10,
            visibility: 'public',
            access_code: null,
            allowed_team: null,
            auto_generate_meet_link: true,
            is_active: true,
            show_on_profile: true,
            availability: 'Working hours',
            questions: [{ question_text: 'Topic?', question_type: 'select', options: ['a', 'b'], is_required: true }],
          },
        ],
        api_keys: [
          { name: 'server', type: 'secret' },
          { name: 'web', type: 'publishable' },
          { name: 'ro', type: 'secret', scopes: ['booking_pages:read'] },
          { name: 'old', type: 'secret', revoked: true },
          { name: 'gone', type: 'secret', expires_at: '2020-01-01T00:00:00Z' },
        ],
        calendar_events: [{ start: `${year}-12-01T10:00:00Z`, end: `${year}-12-01T11:00:00Z`, title: 'Dentist' }],
      },
    ],
    teams: [{ name: 'Sales', members: ['ada'] }],
  };
}

const EVERY_DAY_9_TO_5 = Object.fromEntries(
  ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, [['09:00', '17:00']]]),
);

/**
 * Two hosts for the HTTP tests. Both have a page `intro` (slugs are per account). Availability is 09:00-17:00
 * host-local every day, so any day 1..60 days ahead offers slots. Pages are created in this order, so
 * listBookingPages returns them reversed.
 */
export function apiDocument() {
  const questions = [
    { question_text: 'Topic?', question_type: 'select', options: ['a', 'b'], is_required: true },
    { question_text: 'Anything else?', question_type: 'textarea' },
  ];
  const keys = [
    { name: 'secret', type: 'secret' },
    { name: 'publishable', type: 'publishable' },
    { name: 'read-only', type: 'secret', scopes: ['booking_pages:read'] },
    { name: 'slots-only', type: 'publishable', scopes: ['booking_pages:slots'] },
    { name: 'revoked', type: 'secret', revoked: true },
    { name: 'expired', type: 'secret', expires_at: '2020-01-01T00:00:00Z' },
    { name: 'future', type: 'secret', expires_at: '2099-01-01T00:00:00Z' },
    { name: 'limit-secret', type: 'secret' },
    { name: 'limit-publishable', type: 'publishable' },
  ];
  return {
    hosts: [
      {
        email: 'ada@example.com',
        username: 'ada',
        full_name: 'Ada Lovelace',
        bio: 'Analyst',
        avatar_url: 'https://example.com/ada.png',
        timezone: 'America/New_York',
        availability: [{ name: 'Every day', weekly: EVERY_DAY_9_TO_5 }],
        pages: [
          {
            slug: 'intro',
            title: 'Intro',
            description: '**Hello**',
            duration_minutes: 30,
            buffer_time_minutes: 0,
            max_days_ahead: 60,
            auto_generate_meet_link: true,
            questions,
          },
          { slug: 'approval', title: 'Approval', duration_minutes: 60, booking_type: 'approval', max_days_ahead: 60 },
          { slug: 'inactive', title: 'Inactive', duration_minutes: 30, is_active: false },
          {
            slug: 'private',
            title: 'Private',
            duration_minutes: 45,
            visibility: 'private',
            access_code: 'letmein',
            show_on_profile: false,
          },
          { slug: 'buffered', title: 'Buffered', duration_minutes: 30, buffer_time_minutes: 15, max_days_ahead: 2 },
        ],
        api_keys: keys,
        calendar_events: [],
      },
      {
        email: 'bob@example.com',
        username: 'bob',
        full_name: null,
        timezone: 'Europe/Berlin',
        availability: [{ name: 'Every day', weekly: EVERY_DAY_9_TO_5 }],
        pages: [{ slug: 'intro', title: 'Bob intro', duration_minutes: 20, questions }],
        api_keys: [
          { name: 'secret', type: 'secret' },
          { name: 'publishable', type: 'publishable' },
        ],
      },
    ],
    teams: [{ name: 'Sales', members: ['ada', 'bob'] }],
  };
}
