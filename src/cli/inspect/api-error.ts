// An API misuse the inspector answers with an HTTP status and `{"error": message}`.

/** A refused API request: its HTTP status and a message that says what to do. */
export class ApiError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

/** `value` as a plain object, or undefined. */
export function asObject(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** Field `key` of `body` as a non-empty string; throws a 400 naming it otherwise. */
export function requireString(body: Record<string, unknown>, key: string, where: string): string {
  const value = body[key];
  if (typeof value !== 'string' || value === '') {
    throw new ApiError(400, `${where}: "${key}" must be a non-empty string`);
  }
  return value;
}

/** Field `key` of `body` as an object (`{}` when absent); throws a 400 otherwise. */
export function optionalObject(
  body: Record<string, unknown>,
  key: string,
  where: string,
): Record<string, unknown> {
  const value = body[key];
  if (value === undefined) return {};
  const object = asObject(value);
  if (object === undefined) throw new ApiError(400, `${where}: "${key}" must be an object`);
  return object;
}
