// MCP's log levels (the syslog severities of RFC 5424), in severity order, for filtering
// `notifications/message`: Spec 2025-11-25 server/utilities/logging.
import type { LoggingLevel } from './schema/2026-07-28.js';

/** Every logging level, least severe first. The same eight in every revision. */
export const LOGGING_LEVELS: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

/** True when `value` is one of the {@link LOGGING_LEVELS}. */
export function isLoggingLevel(value: unknown): value is LoggingLevel {
  return typeof value === 'string' && (LOGGING_LEVELS as readonly string[]).includes(value);
}

/**
 * True when a message at `level` passes a filter set to `threshold`, that is when `level` is at
 * least as severe.
 */
export function meetsLoggingLevel(level: LoggingLevel, threshold: LoggingLevel): boolean {
  return LOGGING_LEVELS.indexOf(level) >= LOGGING_LEVELS.indexOf(threshold);
}
