// What the gateway serves of one upstream's tools (a config entry's `tools`), a type of its own
// so that the config's parts (./config.ts, ./team-config.ts) share it without importing each other.

/** What the gateway serves of one upstream's tools. Every field is optional. */
export interface Curation {
  /** Only tools matching one of these names or globs (`*` any run of characters) are served. */
  readonly allow?: readonly string[];
  /** Tools matching one of these names or globs are never served (deny wins over allow). */
  readonly deny?: readonly string[];
  /** Downstream names by upstream tool name (each matching ^[a-zA-Z0-9_-]{1,64}$). */
  readonly rename?: Readonly<Record<string, string>>;
  /** Descriptions that replace the upstream's, by upstream tool name. */
  readonly describe?: Readonly<Record<string, string>>;
}
