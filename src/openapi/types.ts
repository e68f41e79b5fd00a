// The shapes mcpkit/openapi reads from an OpenAPI document (3.0 and 3.1, dereferenced), and the
// plan of one operation as a tool: its definition and what rebuilds the HTTP request exactly.

/** An OpenAPI Schema Object, dereferenced (it may contain cycles). */
export type OpenApiSchema = Readonly<Record<string, unknown>>;

/** An OpenAPI document after parsing, validation and dereferencing (no `$ref` left but cycles). */
export interface OpenApiDocument {
  readonly openapi: string;
  readonly info?: {
    readonly title?: string;
    readonly version?: string;
    readonly description?: string;
  };
  readonly servers?: readonly ServerObject[];
  readonly paths?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly components?: { readonly securitySchemes?: Readonly<Record<string, SecurityScheme>> };
  readonly security?: readonly Readonly<Record<string, readonly string[]>>[];
  readonly tags?: readonly { readonly name: string; readonly description?: string }[];
}

/** A Server Object: a URL template and its variables' defaults. */
export interface ServerObject {
  readonly url: string;
  readonly variables?: Readonly<Record<string, { readonly default: string }>>;
}

/** A Security Scheme Object (the types mcpkit/openapi can supply credentials for). */
export interface SecurityScheme {
  readonly type: string;
  /** `http`: `bearer` or `basic`. */
  readonly scheme?: string;
  /** `apiKey`: the header, query parameter or cookie name. */
  readonly name?: string;
  /** `apiKey`: where the key goes. */
  readonly in?: string;
  /** `oauth2`: its flows; mcpkit/openapi uses `clientCredentials`. */
  readonly flows?: {
    readonly clientCredentials?: {
      readonly tokenUrl: string;
      readonly scopes?: Record<string, string>;
    };
  };
}

/** Where a parameter goes. */
export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie';

/** One parameter of a planned request: the tool argument it comes from and how it is written. */
export interface PlannedParameter {
  /** The property of the tool's arguments. */
  readonly key: string;
  /** The parameter's name in the request. */
  readonly name: string;
  readonly in: ParameterLocation;
  /** `form`, `simple`, `label`, `matrix`, `spaceDelimited`, `pipeDelimited`, `deepObject`. */
  readonly style: string;
  readonly explode: boolean;
  readonly allowReserved: boolean;
  /** Set for a parameter with `content` (not `schema`): its value is sent as JSON text. */
  readonly json: boolean;
}

/** The request body of a planned request. */
export interface PlannedBody {
  /** The property of the tool's arguments holding the body. */
  readonly key: string;
  /** The media type sent (`application/json`, `application/x-www-form-urlencoded`, `multipart/form-data`, …). */
  readonly mediaType: string;
  /** Multipart: the fields that are files (base64 strings or resource links). */
  readonly files: readonly string[];
}

/** Which response of the operation the output schema describes. */
export interface PlannedOutput {
  /** The result was wrapped as `{ result }` because the response is not an object. */
  readonly wrapped: boolean;
}

/** An operation as a tool: its definition and how to rebuild its request. */
export interface ToolPlan {
  /** The tool's name (valid for the model APIs: `^[a-zA-Z0-9_-]{1,64}$`). */
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly outputSchema?: Record<string, unknown>;
  readonly annotations: {
    readonly readOnlyHint?: boolean;
    readonly destructiveHint?: boolean;
    readonly idempotentHint?: boolean;
    readonly openWorldHint?: boolean;
  };
  /** The operation behind it. */
  readonly operation: {
    readonly method: string;
    readonly path: string;
    readonly operationId?: string;
    readonly tags: readonly string[];
    /** Security requirements (the operation's, else the document's). */
    readonly security: readonly Readonly<Record<string, readonly string[]>>[];
  };
  readonly parameters: readonly PlannedParameter[];
  readonly body?: PlannedBody;
  readonly output?: PlannedOutput;
  /** Arguments fixed by configuration, merged under the model's. */
  readonly fixed: Readonly<Record<string, unknown>>;
}
