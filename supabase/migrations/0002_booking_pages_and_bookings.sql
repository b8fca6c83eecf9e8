-- 0002 booking pages, their questions, bookings and guests' answers.
--
-- Field names follow the REST API (../shared/spec/booking-api-v1.md): response objects are these rows.

create table booking_pages (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references accounts (id) on delete cascade,
  slug text not null,
  title text not null,
  description text,
  duration_minutes integer not null,
  booking_type text not null default 'direct',
  max_days_ahead integer,
  buffer_time_minutes integer default 0,
  visibility text not null default 'public',
  access_code_hash text,
  show_access_code_prompt boolean not null default true,
  allowed_team_id uuid references teams (id) on delete set null,
  auto_generate_meet_link boolean default false,
  is_active boolean default true,
  show_on_profile boolean not null default true,
  availability_set_id uuid not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint booking_pages_slug_format check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and length(slug) <= 100),
  constraint booking_pages_title_length check (length(title) between 1 and 200),
  constraint booking_pages_description_length check (length(description) <= 10000),
  constraint booking_pages_duration check (duration_minutes between 1 and 1440),
  constraint booking_pages_booking_type check (booking_type in ('direct', 'approval')),
  constraint booking_pages_max_days_ahead check (max_days_ahead between 0 and 3650),
  constraint booking_pages_buffer check (buffer_time_minutes between 0 and 1440),
  constraint booking_pages_visibility check (visibility in ('public', 'private', 'team')),
  constraint booking_pages_private_code check (visibility <> 'private' or access_code_hash is not null),
  constraint booking_pages_team check (visibility <> 'team' or allowed_team_id is not null),
  constraint booking_pages_slug_key unique (user_id, slug),
  constraint booking_pages_id_user_key unique (id, user_id),
  -- The availability set must belong to the page's own host.
  constraint booking_pages_availability_set_fkey foreign key (availability_set_id, user_id)
    references availability_sets (id, account_id)
);
create index booking_pages_user_created_idx on booking_pages (user_id, created_at desc);
create trigger booking_pages_updated_at before update on booking_pages for each row execute function set_updated_at();
comment on column booking_pages.slug is 'Unique per account; lowercase letters, digits and single hyphens between them.';
comment on column booking_pages.max_days_ahead is 'Host-local calendar days after today that guests can book (0 = today only); null = no limit.';
comment on column booking_pages.buffer_time_minutes is 'Gap kept between consecutive slots and around busy time.';
comment on column booking_pages.access_code_hash is 'scrypt hash of the access code of a private page; the code itself is never stored.';
comment on column booking_pages.show_access_code_prompt is 'Private pages: true shows an access-code form on the hosted page; false opens only from a link carrying the code.';
comment on column booking_pages.show_on_profile is 'Listed on the host''s public profile (/{username} and the legacy embed endpoint).';

create table questions (
  id uuid primary key default gen_random_uuid(),
  booking_page_id uuid not null references booking_pages (id) on delete cascade,
  question_text text not null,
  question_type text not null default 'textarea',
  options jsonb,
  is_required boolean not null default false,
  order_index integer not null,
  created_at timestamptz not null default now(),
  constraint questions_text_length check (length(question_text) between 1 and 1000),
  constraint questions_type_format check (question_type ~ '^[a-z_]{1,40}$'),
  constraint questions_options_array check (options is null or jsonb_typeof(options) = 'array'),
  constraint questions_order_index check (order_index >= 0),
  constraint questions_id_page_key unique (id, booking_page_id),
  constraint questions_order_key unique (booking_page_id, order_index) deferrable initially deferred
);
comment on column questions.question_type is 'Free text: textarea, select, checkbox, email, phone seen; clients render unknown types as plain text.';
comment on column questions.options is 'JSON array of strings: the choices of a select; null otherwise.';

create table bookings (
  id uuid primary key default gen_random_uuid(),
  booking_page_id uuid not null,
  user_id uuid not null,
  guest_name text not null,
  guest_email text not null,
  guest_timezone text,
  start_time timestamptz not null,
  end_time timestamptz not null,
  status text not null,
  cancellation_reason text,
  reminder_sent boolean default false,
  ext_meet_link text,
  ext_calendar_event_id text,
  ext_calendar_id text,
  sync_status text not null default 'not_synced',
  last_synced_at timestamptz,
  sync_failure_reason text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- A booking's host is its page's host.
  constraint bookings_page_fkey foreign key (booking_page_id, user_id)
    references booking_pages (id, user_id) on delete cascade,
  constraint bookings_status check (status in ('pending', 'confirmed', 'cancelled', 'completed')),
  constraint bookings_sync_status check (sync_status in ('not_synced', 'pending', 'synced', 'failed')),
  constraint bookings_time_order check (end_time > start_time),
  constraint bookings_guest_email_format check (guest_email ~ '^[^@\s]+@[^@\s]+$' and length(guest_email) <= 320),
  constraint bookings_guest_name_length check (length(guest_name) between 1 and 200),
  constraint bookings_guest_timezone_iana check (guest_timezone is null or is_iana_timezone(guest_timezone)),
  constraint bookings_reason_length check (length(cancellation_reason) <= 2000),
  constraint bookings_id_page_key unique (id, booking_page_id),
  -- The double-booking guarantee: two pending/confirmed bookings of one host never overlap. Half-open ranges,
  -- so back-to-back bookings are fine; a cancelled booking leaves the constraint and frees its time.
  constraint bookings_no_overlap exclude using gist (
    user_id with =,
    tstzrange(start_time, end_time, '[)') with &&
  ) where (status in ('pending', 'confirmed'))
);
-- listBookings: latest start_time first, optionally per status.
create index bookings_user_start_idx on bookings (user_id, start_time desc);
create index bookings_user_status_start_idx on bookings (user_id, status, start_time desc);
create index bookings_page_idx on bookings (booking_page_id);
-- Guest-email rate limit and "did my booking get created?" look-ups.
create index bookings_guest_email_idx on bookings (lower(guest_email), start_time);
create trigger bookings_updated_at before update on bookings for each row execute function set_updated_at();
comment on column bookings.user_id is 'The host (accounts.id).';
comment on column bookings.guest_timezone is 'IANA zone the guest picked on the hosted page, for emails; null when booked through the API.';
comment on column bookings.sync_status is 'External calendar event state as recorded when the guest booked or the host acted in the dashboard; API PATCH/DELETE do not update it (spec).';
comment on constraint bookings_no_overlap on bookings is 'No overlap of pending/confirmed bookings of one host; violations are SQLSTATE 23P01.';

-- Answers to a page's questions. The composite keys make the database refuse an answer to a question of
-- another page, so a booking can never hold half of a foreign set of answers.
create table meeting_responses (
  id uuid primary key default gen_random_uuid(),
  booking_id uuid not null,
  booking_page_id uuid not null,
  question_id uuid not null,
  answer text not null,
  created_at timestamptz not null default now(),
  constraint meeting_responses_booking_fkey foreign key (booking_id, booking_page_id)
    references bookings (id, booking_page_id) on delete cascade,
  constraint meeting_responses_question_fkey foreign key (question_id, booking_page_id)
    references questions (id, booking_page_id) on delete cascade,
  constraint meeting_responses_answer_length check (length(answer) <= 5000),
  constraint meeting_responses_one_answer unique (booking_id, question_id)
);
comment on table meeting_responses is 'Guest answers; the API shows them as meeting_responses on the booking detail.';
