-- 0003 API keys, rate-limit counters, the email outbox and external calendar data.

create table api_keys (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references accounts (id) on delete cascade,
  name text not null,
  type text not null,
  scopes text[] not null,
  secret_hash text not null unique,
  prefix text not null,
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  revoked_at timestamptz,
  expires_at timestamptz,
  constraint api_keys_name_length check (length(name) between 1 and 100),
  constraint api_keys_type check (type in ('secret', 'publishable')),
  constraint api_keys_scopes_known check (
    scopes <@ array['booking_pages:read', 'booking_pages:slots', 'bookings:create', 'bookings:read', 'bookings:write']::text[]
  ),
  -- Spec, Authentication 5: a publishable key can never hold bookings:read or bookings:write.
  constraint api_keys_publishable_scopes check (
    type = 'secret' or not (scopes && array['bookings:read', 'bookings:write']::text[])
  ),
  constraint api_keys_hash_format check (secret_hash ~ '^[0-9a-f]{64}$')
);
create index api_keys_account_created_idx on api_keys (account_id, created_at desc);
comment on column api_keys.secret_hash is 'SHA-256 (hex) of the whole key. Keys carry 256 random bits, so a fast hash is safe; the key itself is shown once and never stored.';
comment on column api_keys.prefix is 'First characters of the key (type prefix plus 4), shown in the dashboard to tell keys apart.';
comment on column api_keys.last_used_at is 'Updated at most once a minute per key so that reads do not turn into a write per request.';

-- Fixed-window counters for the embedded rate limiter (per API key per minute, per guest email per hour).
-- One row per (bucket, window); an upsert increments it atomically, so several app instances share one count.
create table rate_limit_counters (
  bucket text not null,
  window_start timestamptz not null,
  count integer not null default 0,
  expires_at timestamptz not null,
  primary key (bucket, window_start)
);
create index rate_limit_counters_expires_idx on rate_limit_counters (expires_at);
comment on column rate_limit_counters.bucket is 'What is counted, e.g. key:<api_key_id> or guest:<lower(email)>.';

-- Transactional outbox: written in the same transaction as the booking change, delivered by the dispatcher.
create table email_outbox (
  id uuid primary key default gen_random_uuid(),
  booking_id uuid references bookings (id) on delete set null,
  kind text not null,
  to_address text not null,
  subject text not null,
  text_body text not null,
  html_body text not null,
  ics text,
  status text not null default 'pending',
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  locked_until timestamptz,
  last_error text,
  provider_message_id text,
  created_at timestamptz not null default now(),
  sent_at timestamptz,
  constraint email_outbox_status check (status in ('pending', 'sent', 'failed'))
);
create index email_outbox_due_idx on email_outbox (next_attempt_at) where status = 'pending';
create index email_outbox_booking_idx on email_outbox (booking_id);
comment on column email_outbox.kind is 'guest_confirmation, host_notification, host_approval_request, guest_approved, guest_declined, ...';
comment on column email_outbox.locked_until is 'Claimed by a dispatcher until this time; an expired claim is taken over (crash recovery).';

-- Calendar connections of a host: Google (OAuth tokens, encrypted) or an iCalendar feed to import busy times from.
create table calendar_connections (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references accounts (id) on delete cascade,
  provider text not null,
  calendar_id text,
  feed_url text,
  access_token_enc text,
  refresh_token_enc text,
  token_expires_at timestamptz,
  last_synced_at timestamptz,
  sync_error text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint calendar_connections_provider check (provider in ('google', 'ical'))
);
create index calendar_connections_account_idx on calendar_connections (account_id);
create trigger calendar_connections_updated_at before update on calendar_connections for each row execute function set_updated_at();
comment on column calendar_connections.access_token_enc is 'AES-256-GCM ciphertext (key from the environment); never plain text.';

-- External calendar events: ones the service created for bookings (kind = booking) and busy time synced or
-- imported from the host's calendars (kind = busy), which blocks slots.
create table calendar_events (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references accounts (id) on delete cascade,
  kind text not null,
  provider text not null default 'local',
  connection_id uuid references calendar_connections (id) on delete cascade,
  booking_id uuid references bookings (id) on delete set null,
  external_id text,
  calendar_id text,
  title text,
  start_time timestamptz not null,
  end_time timestamptz not null,
  meet_link text,
  sequence integer not null default 0,
  cancelled_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint calendar_events_kind check (kind in ('booking', 'busy')),
  constraint calendar_events_provider check (provider in ('local', 'google', 'ical')),
  constraint calendar_events_time_order check (end_time > start_time),
  constraint calendar_events_title_length check (length(title) <= 1000)
);
-- Busy look-ups for one host day: an indexed range query.
create index calendar_events_busy_idx on calendar_events using gist (account_id, tstzrange(start_time, end_time, '[)'))
  where kind = 'busy' and cancelled_at is null;
create unique index calendar_events_external_key on calendar_events (account_id, provider, external_id)
  where external_id is not null;
create index calendar_events_booking_idx on calendar_events (booking_id);
create trigger calendar_events_updated_at before update on calendar_events for each row execute function set_updated_at();
comment on column calendar_events.sequence is 'iCalendar SEQUENCE, increased on every change of the event.';
