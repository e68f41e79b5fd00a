// The login check of the MySQL/MariaDB gateway. A READ ONLY transaction refuses writes and DDL,
// but not what some privileges reach outside it: FILE reads and writes the server's files
// (LOAD_FILE, SELECT … INTO OUTFILE), SUPER/RELOAD/SHUTDOWN and the admin privileges change the
// server or end other sessions, EXECUTE runs stored routines with their definer's rights (which
// may end the transaction), SELECT on the system schemas reads password hashes (mysql) and other
// sessions' statements (performance_schema, sys), and any role granted to the login can be taken
// with SET ROLE. So the gateway serves only a login whose grants, and those of every role granted
// to it, hold nothing beyond reading (SELECT, SHOW VIEW, SHOW DATABASES, USAGE) outside the
// system schemas, unless told otherwise.
import { PrivilegedLoginError } from './privileges.js';

/** Privileges a read-only login may hold. */
export const READ_PRIVILEGES: readonly string[] = [
  'USAGE',
  'SELECT',
  'SHOW VIEW',
  'SHOW DATABASES',
];

/**
 * Schemas a login must not read, whatever it may read elsewhere: `mysql` holds password hashes
 * (`global_priv`, `user`), `performance_schema` and `sys` other sessions' statements.
 * `information_schema` shows each login only what it has privileges on.
 */
export const SYSTEM_SCHEMAS: readonly string[] = ['mysql', 'performance_schema', 'sys'];

/**
 * One parsed `GRANT … ON … TO …` line of SHOW GRANTS, or a granted role (`GRANT role TO …`);
 * `to` is the grantee as SHOW GRANTS spells it (`` `app`@`%` ``, `` `reporting` ``).
 */
export type GrantLine =
  | { kind: 'privileges'; privileges: string[]; on: string; to: string }
  | { kind: 'role'; role: string; to: string };

/** Parses one line of SHOW GRANTS; undefined for lines that grant nothing (SET DEFAULT ROLE). */
export function parseGrant(line: string): GrantLine | undefined {
  const privileges = /^GRANT (.+?) ON (.+?) TO (.+)$/s.exec(line);
  if (privileges !== null) {
    const [, list = '', on = '', rest = ''] = privileges;
    const names = splitPrivileges(list);
    if (/ WITH GRANT OPTION/i.test(rest)) names.push('GRANT OPTION');
    return { kind: 'privileges', privileges: names, on: on.trim(), to: grantee(rest) };
  }
  const role = /^GRANT (.+?) TO (.+)$/s.exec(line);
  if (role?.[1] !== undefined && role[2] !== undefined) {
    return { kind: 'role', role: role[1].trim(), to: grantee(role[2]) };
  }
  return undefined;
}

// A user, host or role name as SHOW GRANTS prints it: backquoted, single-quoted or bare.
const NAME = /(?:`(?:[^`]|``)*`|'(?:[^']|'')*'|[^\s@]+)/.source;
const GRANTEE = new RegExp(`^${NAME}(?:@${NAME})?`);

/** The grantee that starts `rest` (`` `app`@`%` IDENTIFIED BY PASSWORD '…' `` → `` `app`@`%` ``). */
function grantee(rest: string): string {
  const trimmed = rest.trim();
  return GRANTEE.exec(trimmed)?.[0] ?? trimmed;
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

/**
 * The privileges of `lines` beyond reading, and reading of the system schemas, as phrases such as
 * `holds FILE, SUPER on *.*`.
 */
export function privilegesBeyondReading(lines: readonly GrantLine[]): string[] {
  const found: string[] = [];
  for (const line of lines) {
    if (line.kind !== 'privileges') continue;
    const extra = line.privileges.filter((p) => !READ_PRIVILEGES.includes(p));
    if (extra.length > 0) found.push(`holds ${extra.join(', ')} on ${line.on}`);
    const schemas = line.privileges.includes('SELECT') ? systemSchemasIn(line.on) : [];
    if (schemas.length > 0) {
      found.push(
        `holds SELECT on ${line.on}, which reads the system schema${schemas.length > 1 ? 's' : ''} ` +
          `${schemas.join(', ')} (password hashes, other sessions' statements)`,
      );
    }
  }
  return found;
}

/**
 * The system schemas a grant `ON` reaches: `*.*` all; `` `db`.* `` those its name matches, as a
 * LIKE pattern (`_`, `%`, `\_`), as the server matches database-level grants; `` `db`.`t` `` by
 * name (table-level grants take the name literally).
 */
function systemSchemasIn(on: string): string[] {
  if (on === '*.*') return [...SYSTEM_SCHEMAS];
  const parts = /^(`(?:[^`]|``)*`|[^.`]+)\.(.+)$/.exec(on);
  if (parts === null) return [];
  const [, quoted = '', table = ''] = parts;
  const name = quoted.startsWith('`') ? quoted.slice(1, -1).replace(/``/g, '`') : quoted;
  if (table !== '*') return SYSTEM_SCHEMAS.filter((s) => s === name.toLowerCase());
  const like = likeRegExp(name);
  return SYSTEM_SCHEMAS.filter((s) => like.test(s));
}

/** A LIKE pattern (`%` any run, `_` any character, `\` escapes the next) as a RegExp, any case. */
function likeRegExp(pattern: string): RegExp {
  let source = '';
  let escaped = false;
  for (const char of pattern) {
    if (escaped || (char !== '\\' && char !== '%' && char !== '_')) source += escapeRegExp(char);
    else if (char === '%') source += '.*';
    else if (char === '_') source += '.';
    escaped = !escaped && char === '\\';
  }
  return new RegExp(`^${source}${escaped ? '\\\\' : ''}$`, 'is');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
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
  // Grantees whose grants an answer listed: MariaDB lists a set role's grants with those of the
  // roles granted to it (which it refuses to SET), so those need no statement of their own.
  const listed = new Set<string>();
  const visit = async (who: string, forClause: string | undefined, depth: number) => {
    const rows =
      forClause === undefined ? await read('SHOW GRANTS') : await grantsOf(read, forClause);
    if (rows instanceof Error) {
      found.push(`${who} could not be checked (${rows.message})`);
      return;
    }
    const lines = rows.map((row) => parseGrant(String(row[0]))).filter((l) => l !== undefined);
    found.push(...describeGrants(who, lines));
    for (const line of lines) listed.add(line.to);
    for (const line of lines) {
      if (line.kind !== 'role' || listed.has(line.role) || depth >= 8) continue;
      listed.add(line.role);
      await visit(`the role ${line.role}`, line.role, depth + 1);
    }
  };
  await visit(`the login ${quoteUser(String(user))}`, undefined, 0);
  return found;
}

/**
 * What one answer of SHOW GRANTS holds beyond reading, each line told of its grantee: `who` for
 * the subject, `the role …` for a role granted within the answer.
 */
function describeGrants(who: string, lines: readonly GrantLine[]): string[] {
  const roles = new Set(lines.flatMap((line) => (line.kind === 'role' ? [line.role] : [])));
  const byGrantee = new Map<string, GrantLine[]>();
  for (const line of lines) {
    const label = roles.has(line.to) ? `the role ${line.to}` : who;
    byGrantee.set(label, [...(byGrantee.get(label) ?? []), line]);
  }
  return [...byGrantee].flatMap(([label, group]) =>
    privilegesBeyondReading(group).map((what) => `${label} ${what}`),
  );
}

/**
 * The grants of a role granted to the login. MariaDB shows them once the role is set; MySQL 8
 * shows them with the login's (USING); either may refuse, which the caller reports (a syntax
 * error only says this server lacks that form: another attempt's refusal is told instead).
 * Leaves the role set: the caller's connection is not reused.
 */
async function grantsOf(read: GrantReader, role: string): Promise<unknown[][] | Error> {
  const attempts = [
    [`SHOW GRANTS FOR ${role}`],
    [`SET ROLE ${role}`, `SHOW GRANTS FOR ${role}`],
    [`SHOW GRANTS FOR CURRENT_USER() USING ${role}`],
  ];
  let failure: Error | undefined;
  for (const statements of attempts) {
    try {
      let rows: unknown[][] = [];
      for (const statement of statements) rows = await read(statement);
      return rows;
    } catch (error) {
      const syntax = (error as { code?: unknown } | null)?.code === 'ER_PARSE_ERROR';
      if (failure === undefined || !syntax) {
        failure = error instanceof Error ? error : new Error(String(error));
      }
    }
  }
  return failure ?? new Error('no way to read its grants');
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
      "from reading password hashes (mysql.global_priv) or other sessions' statements " +
      '(performance_schema), reading or writing server files (LOAD_FILE, SELECT … INTO OUTFILE), ' +
      "changing server settings, ending other sessions or running stored routines with their definer's " +
      "rights; a read-only gateway needs a login that may only read the application's database " +
      '(SELECT, SHOW VIEW ON app.*).',
    found,
  );
}
