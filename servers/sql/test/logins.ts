// PostgreSQL logins for the tests: the gateway refuses a privileged one, so tests that serve
// connect as roles they create (trust authentication, as on the CI machine).

/** `url` with `user` as its login (and no password). */
export function loginUrl(url: string, user: string): string {
  const u = new URL(url);
  u.username = user;
  u.password = '';
  return u.toString();
}
