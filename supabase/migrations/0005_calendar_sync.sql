-- 0005 Calendar connections in use: Google (OAuth) and iCalendar feeds, busy-time sync, the host's private feed.
--
-- A host has at most one Google connection (the provider of their booking events) and any number of iCalendar
-- feeds to import busy time from. A sync replaces the busy rows of one connection (calendar_events.connection_id).

create unique index calendar_connections_google_key on calendar_connections (account_id) where provider = 'google';
create unique index calendar_connections_feed_key on calendar_connections (account_id, feed_url) where provider = 'ical';

alter table calendar_connections
  add constraint calendar_connections_google_fields
    check (provider <> 'google' or (calendar_id is not null and refresh_token_enc is not null)),
  add constraint calendar_connections_ical_fields
    check (provider <> 'ical' or (feed_url ~ '^https?://' and length(feed_url) <= 2000)),
  add constraint calendar_connections_sync_error_length check (length(sync_error) <= 1000);

-- The sync deletes one connection's busy rows; the foreign key's cascade uses the same index.
create index calendar_events_connection_idx on calendar_events (connection_id) where connection_id is not null;
-- The private feed: one host's service-created local events, recent and upcoming.
create index calendar_events_feed_idx on calendar_events (account_id, end_time) where kind = 'booking' and provider = 'local';

comment on column calendar_connections.calendar_id is 'Google calendar id (''primary'' or GOOGLE_CALENDAR_ID at connection time); null for feeds.';
comment on column calendar_connections.feed_url is 'iCalendar feed (http/https) to import busy time from. Often a capability URL: never logged or shown in full.';
comment on column calendar_connections.refresh_token_enc is 'AES-256-GCM ciphertext (v1.iv.body.tag, base64url; key from TOKEN_ENCRYPTION_KEY); never plain text.';
comment on column calendar_connections.token_expires_at is 'When the stored access token expires; it is refreshed a minute before, or on a 401.';
comment on column calendar_connections.last_synced_at is 'Time of the last successful busy-time sync; a failed one keeps it and sets sync_error.';
comment on column calendar_connections.sync_error is 'Why the last sync failed (no secrets in it); null after a successful sync.';
comment on column calendar_events.connection_id is 'The connection a synced busy row came from (replaced on every sync), or the Google connection of a booking event; null for imported and local rows.';
