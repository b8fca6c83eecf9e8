-- 0004 iCalendar sequence per booking.
--
-- Every email about a booking carries an iCalendar invite with a stable UID; calendar apps apply an update only
-- when its SEQUENCE is higher than the one they hold (RFC 5545, 3.8.7.4), so the booking counts its changes.

alter table bookings add column ical_sequence integer not null default 0;
comment on column bookings.ical_sequence is 'iCalendar SEQUENCE of the booking''s invites; raised on every status change after creation.';

alter table email_outbox add column to_name text;
comment on column email_outbox.to_name is 'Display name of the recipient; sanitised into the To header at send time.';
