// Types of scripts/balancer.mjs (a private nginx round-robin balancer for tests, bench, conformance).

/** The nginx binary, or undefined when it is not installed. */
export function findNginx(): string | undefined;
/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number>;
/** The nginx config: the upstreams round-robin, SSE-friendly proxying, files under `dir`. */
export function nginxConfig(dir: string, port: number, upstreams: readonly string[]): string;

/** A running nginx. */
export interface Balancer {
  /** http://127.0.0.1:<port>/mcp */
  readonly url: string;
  readonly port: number;
  /** The access log's lines so far: `<upstream> <method> <status> "<session id>"`. */
  accessLog(): string[];
  close(): Promise<void>;
}

/** Starts nginx in front of `upstreams` (`host:port` each); throws when nginx is missing or exits. */
export function startBalancer(upstreams: readonly string[], nginx?: string): Promise<Balancer>;
