-- 0001 accounts, dashboard sessions, teams and availability.
--
-- Hosts are "accounts". Everything a host owns hangs off accounts.id, which the REST API calls `user_id`.
-- Runs unchanged on PGlite (embedded default) and Postgres 15+ (Supabase).

create extension if not exists btree_gist;

-- Shared trigger: every table with an updated_at column gets it moved on each UPDATE, so callers cannot forget.
create or replace function set_updated_at() returns trigger
language plpgsql as $$
begin
  new.updated_at := now();
  return new;
end;
$$;

-- IANA time-zone names only. pg_timezone_names is the server's tz database; abbreviations ("EST") and POSIX
-- strings ("UTC+3") that `AT TIME ZONE` would also accept are rejected because Intl in the app rejects them too.
create or replace function is_iana_timezone(tz text) returns boolean
language sql stable as $$
  select tz is not null and tz !~ '^[+-]' and exists (select 1 from pg_timezone_names where name = tz)
$$;

create table accounts (
  id uuid primary key default gen_random_uuid(),
  email text not null,
  password_hash text,
  username text not null,
  full_name text,
  bio text,
  avatar_url text,
  timezone text not null default 'UTC',
  calendar_feed_token_hash text unique,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint accounts_email_format check (email ~ '^[^@\s]+@[^@\s]+$' and length(email) <= 320),
  constraint accounts_username_format check (username ~ '^[a-z0-9](?:[a-z0-9_-]{0,38}[a-z0-9])?$'),
  constraint accounts_timezone_iana check (is_iana_timezone(timezone)),
  constraint accounts_full_name_length check (length(full_name) <= 200),
  constraint accounts_bio_length check (length(bio) <= 5000),
  constraint accounts_avatar_url_format check (avatar_url ~ '^https?://' and length(avatar_url) <= 2000)
);
create unique index accounts_username_key on accounts (username);
create unique index accounts_email_key on accounts (lower(email));
create trigger accounts_updated_at before update on accounts for each row execute function set_updated_at();
comment on table accounts is 'Hosts. The API exposes accounts.id as user_id.';
comment on column accounts.username is 'Public handle in hosted page URLs /{username}/{slug}; lowercase, 1-40 chars.';
comment on column accounts.password_hash is 'scrypt$N$r$p$salt$hash (base64url); null for accounts that cannot sign in to the dashboard.';
comment on column accounts.timezone is 'IANA zone name; slot days are calendar days in this zone.';
comment on column accounts.calendar_feed_token_hash is 'SHA-256 (hex) of the token in the host''s private iCalendar feed URL; the token itself is shown once.';

-- Dashboard sign-in sessions. The cookie holds the token; only its hash is stored.
create table sessions (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references accounts (id) on delete cascade,
  token_hash text not null unique,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null
);
create index sessions_account_idx on sessions (account_id);
comment on column sessions.token_hash is 'SHA-256 (hex) of the session cookie value.';

create table teams (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  created_by uuid references accounts (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint teams_name_length check (length(name) between 1 and 200)
);
create unique index teams_name_key on teams (lower(name));
create trigger teams_updated_at before update on teams for each row execute function set_updated_at();
comment on table teams is 'Groups of accounts; a booking page with visibility = team opens only for signed-in members of allowed_team_id.';

create table team_members (
  team_id uuid not null references teams (id) on delete cascade,
  account_id uuid not null references accounts (id) on delete cascade,
  role text not null default 'member',
  created_at timestamptz not null default now(),
  primary key (team_id, account_id),
  constraint team_members_role check (role in ('owner', 'member'))
);
create index team_members_account_idx on team_members (account_id);

create table availability_sets (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references accounts (id) on delete cascade,
  name text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint availability_sets_name_length check (length(name) between 1 and 200),
  -- Target of composite foreign keys that keep a page's availability set on the page's own account.
  constraint availability_sets_id_account_key unique (id, account_id)
);
create unique index availability_sets_account_name_key on availability_sets (account_id, name);
create trigger availability_sets_updated_at before update on availability_sets for each row execute function set_updated_at();
comment on table availability_sets is 'Named weekly schedules of a host (e.g. "Working hours"); a booking page picks one.';

-- Weekly rules: several intervals per weekday, host-local wall-clock time. An interval never crosses midnight;
-- end_time may be 24:00 (end of the day). A night shift is two intervals on two weekdays.
create table availability_rules (
  id uuid primary key default gen_random_uuid(),
  availability_set_id uuid not null references availability_sets (id) on delete cascade,
  weekday smallint not null,
  start_time time not null,
  end_time time not null,
  constraint availability_rules_weekday check (weekday between 1 and 7),
  constraint availability_rules_order check (start_time < end_time)
);
create index availability_rules_set_idx on availability_rules (availability_set_id, weekday, start_time);
comment on column availability_rules.weekday is 'ISO weekday: 1 = Monday ... 7 = Sunday.';
comment on column availability_rules.start_time is 'Host-local wall-clock time (accounts.timezone).';

-- Date overrides replace the weekly rules on one host-local date. A row with null times marks the whole
-- date unavailable; otherwise each row is one interval of that date.
create table availability_overrides (
  id uuid primary key default gen_random_uuid(),
  availability_set_id uuid not null references availability_sets (id) on delete cascade,
  override_date date not null,
  start_time time,
  end_time time,
  constraint availability_overrides_interval check (
    (start_time is null and end_time is null) or (start_time is not null and end_time is not null and start_time < end_time)
  )
);
create index availability_overrides_set_idx on availability_overrides (availability_set_id, override_date);
-- At most one "unavailable" marker per date.
create unique index availability_overrides_unavailable_key on availability_overrides (availability_set_id, override_date)
  where start_time is null;
comment on table availability_overrides is 'Per-date replacement of the weekly rules; a null-time row means unavailable all day.';
