// The login check of the PostgreSQL gateway. A READ ONLY transaction stops writes to tables; it
// does not stop what server-side functions do for a privileged login: `COPY … TO PROGRAM` runs a
// shell command on the database host, `COPY … TO '<file>'` writes a file that survives the
// rollback, `pg_read_file` and `lo_import` read the server's files, `pg_terminate_backend` ends
// other sessions, and `pg_authid` holds password hashes. So the gateway refuses to serve on a
// login (or a `role` it would SET ROLE to) that holds any of these, unless told otherwise.

/** A query runner: the pool, or one client. */
export interface Queryable {
  query(text: string, values: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

/** Predefined roles whose members can leave the read-only sandbox. */
export const DANGEROUS_ROLES: readonly string[] = [
  'pg_execute_server_program',
  'pg_write_server_files',
  'pg_read_server_files',
  'pg_signal_backend',
];

/**
 * Functions that reach the server's files, by signature: not executable by PUBLIC, so a grant
 * of any of them is a privilege. (pg_terminate_backend is PUBLIC: it checks pg_signal_backend.)
 */
const DANGEROUS_FUNCTIONS: readonly string[] = [
  'pg_read_file(text)',
  'pg_read_binary_file(text)',
  'pg_ls_dir(text)',
  'lo_import(text)',
  'lo_export(oid, text)',
];

// One row per role checked: the login, and the role queries run as when one is set. Roles and
// functions that this PostgreSQL version lacks are skipped (to_regrole / to_regprocedure).
const CHECK_SQL = `
SELECT r.rolname AS role,
       r.rolsuper AS superuser,
       ARRAY(SELECT d.rolname::text FROM unnest($1::text[]) AS n(name)
             JOIN pg_roles d ON d.oid = to_regrole(n.name)
             WHERE pg_has_role(r.oid, d.oid, 'MEMBER') ORDER BY 1) AS roles,
       has_table_privilege(r.oid, 'pg_catalog.pg_authid', 'SELECT') AS authid,
       ARRAY(SELECT f.sig FROM unnest($2::text[]) AS f(sig)
             WHERE to_regprocedure(f.sig) IS NOT NULL
               AND has_function_privilege(r.oid, to_regprocedure(f.sig), 'EXECUTE') ORDER BY 1) AS functions
FROM pg_roles r
WHERE r.rolname = current_user OR r.rolname = $3
ORDER BY r.rolname = current_user DESC`;

/** What makes one role privileged, in words, or nothing when it is not. */
export function privilegesOf(row: Record<string, unknown>): string[] {
  const found: string[] = [];
  if (row['superuser'] === true) return ['is a superuser'];
  const roles = Array.isArray(row['roles']) ? (row['roles'] as string[]) : [];
  for (const role of roles) found.push(`is a member of ${role}`);
  if (row['authid'] === true) found.push('can read pg_authid (password hashes)');
  const functions = Array.isArray(row['functions']) ? (row['functions'] as string[]) : [];
  for (const fn of functions) found.push(`may execute ${fn}`);
  return found;
}

/**
 * The privileges of the current login and of `role`, as lines such as `the login "postgres" is
 * a superuser`; empty when neither holds any.
 */
export async function findPrivileges(db: Queryable, role: string | undefined): Promise<string[]> {
  const { rows } = await db.query(CHECK_SQL, [DANGEROUS_ROLES, DANGEROUS_FUNCTIONS, role ?? null]);
  const found: string[] = [];
  rows.forEach((row, index) => {
    const who = index === 0 ? 'the login' : 'the role';
    for (const what of privilegesOf(row)) found.push(`${who} "${String(row['role'])}" ${what}`);
  });
  return found;
}

/** The refusal of a privileged login; `privileges` lists what was found. */
export class PrivilegedLoginError extends Error {
  readonly privileges: readonly string[];

  constructor(message: string, privileges: readonly string[]) {
    super(message);
    this.name = 'PrivilegedLoginError';
    this.privileges = privileges;
  }
}

/** The error that refuses a privileged login: what was found, why it matters, what to do. */
export function privilegedLoginError(found: readonly string[]): PrivilegedLoginError {
  return new PrivilegedLoginError(
    `refusing to serve: ${found.join('; ')}. A read-only transaction does not stop such a ` +
      'login from running shell commands (COPY … TO PROGRAM), reading or writing server files or ' +
      'ending other sessions.',
    found,
  );
}

/** What to do about a refused login. */
export const PRIVILEGED_LOGIN_HINT: string =
  'connect with a least-privilege login (docs/servers.md, "A least-privilege login"), or ' +
  'accept the risk with --allow-privileged-login (option allowPrivilegedLogin)';
