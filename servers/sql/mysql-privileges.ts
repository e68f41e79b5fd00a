// The login check of the MySQL/MariaDB gateway. A READ ONLY transaction refuses writes and DDL,
// but not what some privileges reach outside it: FILE reads and writes the server's files
// (LOAD_FILE, SELECT … INTO OUTFILE), SUPER/RELOAD/SHUTDOWN and the admin privileges change the
// server or end other sessions, EXECUTE runs stored routines with their definer's rights (which
// may end the transaction), and any role granted to the login can be taken with SET ROLE. So
// the gateway serves only a login whose grants, and those of every role granted to it, hold
// nothing beyond reading (SELECT, SHOW VIEW, SHOW DATABASES, USAGE), unless told otherwise.
import { PrivilegedLoginError } from './privileges.js';

/** Privileges a read-only login may hold. */
export const READ_PRIVILEGES: readonly string[] = [
  'USAGE',
  'SELECT',
  'SHOW VIEW',
  'SHOW DATABASES',
];

/** One parsed `GRANT … ON … TO …` line of SHOW GRANTS, or a granted role (`GRANT role TO …`). */
export type GrantLine =
  { kind: 'privileges'; privileges: string[]; on: string } | { kind: 'role'; role: string };

/** Parses one line of SHOW GRANTS; undefined for lines that grant nothing (SET DEFAULT ROLE). */
export function parseGrant(line: string): GrantLine | undefined {
  const privileges = /^GRANT (.+?) ON (.+?) TO (.+)$/s.exec(line);
  if (privileges !== null) {
    const [, list = '', on = '', rest = ''] = privileges;
    const names = splitPrivileges(list);
    if (/ WITH GRANT OPTION/i.test(rest)) names.push('GRANT OPTION');
    return { kind: 'privileges', privileges: names, on: on.trim() };
  }
  const role = /^GRANT (.+?) TO /s.exec(line);
  if (role?.[1] !== undefined) return { kind: 'role', role: role[1].trim() };
  return undefined;
}

/** `SELECT, INSERT (a, b), ALL PRIVILEGES` → names, column lists dropped, upper case. */
function splitPrivileges(list: string): string[] {
  const names: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of list) {
    if (char === '(') depth++;
    else if (char === ')') depth = Math.max(0, depth - 1);
    else if (char === ',' && depth === 0) {
      names.push(current);
      current = '';
    } else if (depth === 0) current += char;
  }
  names.push(current);
  return names.map((n) => n.trim().replace(/\s+/g, ' ').toUpperCase()).filter((n) => n !== '');
}

/** The privileges of `lines` beyond reading, as phrases such as `holds FILE, SUPER on *.*`. */
export function privilegesBeyondReading(lines: readonly GrantLine[]): string[] {
  const found: string[] = [];
  for (const line of lines) {
    if (line.kind !== 'privileges') continue;
    const extra = line.privileges.filter((p) => !READ_PRIVILEGES.includes(p));
    if (extra.length > 0) found.push(`holds ${extra.join(', ')} on ${line.on}`);
  }
  return found;
}

/** Runs one statement and returns its rows as arrays. */
export type GrantReader = (sql: string) => Promise<unknown[][]>;

/**
 * What makes the current login privileged, as lines such as `the login 'app'@'%' holds FILE on
 * *.*`; roles granted to it (directly or through other roles) are checked too. Empty when the
 * login and its roles may only read.
 */
export async function findMysqlPrivileges(read: GrantReader): Promise<string[]> {
  const [[user]] = (await read('SELECT CURRENT_USER()')) as [[unknown]];
  const found: string[] = [];
  const seen = new Set<string>();
  const visit = async (who: string, forClause: string | undefined, depth: number) => {
    const rows =
      forClause === undefined ? await read('SHOW GRANTS') : await grantsOf(read, forClause);
    if (rows instanceof Error) {
      found.push(`${who} could not be checked (${rows.message})`);
      return;
    }
    const lines = rows.map((row) => parseGrant(String(row[0]))).filter((l) => l !== undefined);
    for (const what of privilegesBeyondReading(lines)) found.push(`${who} ${what}`);
    for (const line of lines) {
      if (line.kind !== 'role' || seen.has(line.role) || depth >= 8) continue;
      seen.add(line.role);
      await visit(`the role ${line.role}`, line.role, depth + 1);
    }
  };
  await visit(`the login ${quoteUser(String(user))}`, undefined, 0);
  return found;
}

/**
 * The grants of a role granted to the login. MariaDB shows them once the role is set; MySQL 8
 * shows them with the login's (USING); either may refuse, which the caller reports. Leaves the
 * role set: the caller's connection is not reused.
 */
async function grantsOf(read: GrantReader, role: string): Promise<unknown[][] | Error> {
  const attempts = [
    [`SHOW GRANTS FOR ${role}`],
    [`SET ROLE ${role}`, `SHOW GRANTS FOR ${role}`],
    [`SHOW GRANTS FOR CURRENT_USER() USING ${role}`],
  ];
  let failure = new Error('no way to read its grants');
  for (const statements of attempts) {
    try {
      let rows: unknown[][] = [];
      for (const statement of statements) rows = await read(statement);
      return rows;
    } catch (error) {
      failure = error instanceof Error ? error : new Error(String(error));
    }
  }
  return failure;
}

/** `app@%` (CURRENT_USER()) → `'app'@'%'`. */
function quoteUser(user: string): string {
  const at = user.lastIndexOf('@');
  return at < 0 ? `'${user}'` : `'${user.slice(0, at)}'@'${user.slice(at + 1)}'`;
}

/** The refusal of a privileged MySQL/MariaDB login; `found` lists what was found. */
export function mysqlPrivilegedLoginError(found: readonly string[]): PrivilegedLoginError {
  return new PrivilegedLoginError(
    `refusing to serve: ${found.join('; ')}. A read-only transaction does not stop such a login ` +
      'from reading or writing server files (LOAD_FILE, SELECT … INTO OUTFILE), changing server ' +
      "settings, ending other sessions or running stored routines with their definer's rights; " +
      'a read-only gateway needs a login that may only read (SELECT, SHOW VIEW).',
    found,
  );
}
