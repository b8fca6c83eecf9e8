-- 0006 reserved usernames.
--
-- Hosted pages live at /{username}/{slug}, next to the app's own top-level routes. A host named like one of them
-- would lose their pages to the route, so those names cannot be usernames (the dashboard's check says the same).

alter table accounts add constraint accounts_username_reserved check (
  username not in ('api', 'calendar', 'dashboard', 'sign-in', 'sign-out', 'sign-up', 'login', 'logout', 'settings',
                   'admin', 'embed', 'static', 'public', 'assets', 'favicon.ico', 'robots.txt', 'health')
);
