// The public shapes of mcpkit's OAuth client: its options, the provider that reaches the user,
// the store that keeps registrations and tokens, and the documents it reads (RFC 8414, 7591).

/** An authorization server's metadata (RFC 8414 section 2), the fields the client reads. */
export interface AuthorizationServerMetadata {
  readonly issuer: string;
  readonly authorization_endpoint?: string;
  readonly token_endpoint: string;
  readonly registration_endpoint?: string;
  readonly scopes_supported?: readonly string[];
  readonly grant_types_supported?: readonly string[];
  readonly code_challenge_methods_supported?: readonly string[];
  readonly token_endpoint_auth_methods_supported?: readonly string[];
  readonly client_id_metadata_document_supported?: boolean;
  readonly authorization_response_iss_parameter_supported?: boolean;
  readonly dpop_signing_alg_values_supported?: readonly string[];
}

/** How the client authenticates at the token endpoint (RFC 7591 section 2). */
export type TokenEndpointAuthMethod =
  'client_secret_basic' | 'client_secret_post' | 'private_key_jwt' | 'none';

/**
 * A client identity at one authorization server: pre-registered, a Client ID Metadata Document
 * URL, or what dynamic registration returned.
 */
export interface OAuthClientInformation {
  readonly client_id: string;
  readonly client_secret?: string;
  /** Default: chosen from what the server supports and whether there is a secret or key. */
  readonly token_endpoint_auth_method?: TokenEndpointAuthMethod;
  /** `private_key_jwt`: the private key, PEM (PKCS#8) or a JWK. */
  readonly private_key?: string | Readonly<Record<string, unknown>>;
  /** `private_key_jwt`: the signing algorithm. Default ES256. */
  readonly signing_algorithm?: string;
}

/** Client metadata sent with dynamic registration (RFC 7591 section 2); every field optional. */
export interface OAuthClientMetadata {
  readonly client_name?: string;
  readonly client_uri?: string;
  readonly logo_uri?: string;
  readonly software_id?: string;
  readonly software_version?: string;
  readonly [field: string]: unknown;
}

/** The tokens the client holds for one MCP server. */
export interface OAuthTokens {
  readonly access_token: string;
  /** `Bearer` or `DPoP`. */
  readonly token_type: string;
  readonly refresh_token?: string;
  /** Milliseconds since the epoch. */
  readonly expires_at?: number;
  /** The scope granted (or requested, when the server did not say). */
  readonly scope?: string;
  /** The authorization server that issued them. */
  readonly issuer: string;
  /** DPoP: the key pair the tokens are bound to (private JWK). */
  readonly dpop_key?: Readonly<Record<string, unknown>>;
}

/**
 * Where the OAuth client keeps client registrations (per authorization server) and tokens (per
 * MCP server). Values are JSON. `memoryStore()` forgets on exit; `fileStore(path)` keeps them in
 * one JSON file written with mode 0600.
 */
export interface OAuthStore {
  get(key: string): Promise<unknown>;
  /** Stores `value`, or deletes the key when it is undefined. */
  set(key: string, value: unknown): Promise<void>;
}

/**
 * Reaches the user for the authorization code grant: where the authorization server sends
 * the browser back to, and how the user gets to the authorization URL (open a browser, print
 * it, drive a headless agent). The CLI's provider listens on a 127.0.0.1 loopback port.
 */
export interface OAuthProvider {
  /**
   * The redirect URI to register and send; may start the listener that receives it.
   * `registered` holds the redirect URIs of the client's stored registration, if any: a
   * provider that can return one of them (a loopback port still free) spares a new
   * registration at the authorization server.
   */
  redirectUri(registered?: readonly string[]): string | Promise<string>;
  /**
   * Sends the user to `url` and resolves with the URL the authorization server redirected
   * back to (its query carries `code`, `state`, `iss` or `error`). Rejects if the user gives up.
   */
  authorize(url: URL, signal: AbortSignal): Promise<URL | string>;
}

/** A grant that needs no user: client credentials, JWT bearer, or enterprise token exchange. */
export type OAuthGrant =
  | { readonly type: 'authorization_code' }
  | { readonly type: 'client_credentials' }
  | {
      /** RFC 7523 JWT bearer (workload identity federation): `assertion` is the workload's JWT. */
      readonly type: 'jwt_bearer';
      readonly assertion: () => string | Promise<string>;
    }
  | {
      /**
       * Enterprise-managed authorization: the identity provider exchanges the user's ID token
       * for an identity assertion (RFC 8693 token exchange, `urn:ietf:params:oauth:token-type:id-jag`),
       * which the authorization server then takes as a JWT bearer grant.
       */
      readonly type: 'token_exchange';
      readonly idp: {
        readonly tokenEndpoint: string;
        readonly clientId: string;
        readonly clientSecret?: string;
        readonly idToken: () => string | Promise<string>;
      };
    };

/** Options of {@link createOAuthClient}. */
export interface OAuthClientOptions {
  /** The MCP server (the protected resource) these credentials are for. */
  readonly serverUrl: string | URL;
  /** Reaches the user; required for the authorization code grant. */
  readonly provider?: OAuthProvider;
  /** Default: `memoryStore()`. */
  readonly store?: OAuthStore;
  /** Which grant to use. Default: the authorization code grant. */
  readonly grant?: OAuthGrant;
  /** Pre-registered credentials, used before any other way of identifying the client. */
  readonly client?: OAuthClientInformation;
  /** A Client ID Metadata Document URL (https), used as `client_id` where the server allows. */
  readonly clientMetadataUrl?: string;
  /** Metadata for dynamic registration. Default: `client_name` "mcpkit". */
  readonly clientMetadata?: OAuthClientMetadata;
  /** Scopes to request instead of what the server asks for. */
  readonly scope?: string;
  /**
   * The authorization server's metadata when it is known ahead (an OpenAPI document's
   * `tokenUrl`, say): discovery is skipped and no `resource` is requested.
   */
  readonly authorizationServer?: AuthorizationServerMetadata;
  /**
   * DPoP (RFC 9449): `'auto'` (default) binds tokens when the authorization server supports
   * ES256 proofs and the `jose` package is installed; `true` requires it; `false` never.
   */
  readonly dpop?: boolean | 'auto';
  /** Authorization attempts for one request before it fails (step-up loops): 1 to 10, default 3. */
  readonly maxAuthorizations?: number;
  /** The fetch for every OAuth request (trace it, proxy it). Default: the global fetch. */
  readonly fetch?: (url: string, init: RequestInit) => Promise<Response>;
  /**
   * How long one OAuth HTTP request may take, headers and body, in milliseconds; past it the
   * flow fails with `unreachable`. Default 30000. (No answer is read past 1 MiB.)
   */
  readonly timeoutMs?: number;
  /** How long the user has to complete the browser step, in milliseconds. Default 300000. */
  readonly authorizeTimeoutMs?: number;
}
