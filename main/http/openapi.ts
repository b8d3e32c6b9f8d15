// The OpenAPI 3.1 description of the API, built from the route objects and the zod schemas that
// validate their requests, so the reference served at /swagger cannot drift from what the server does.
import { z } from 'zod';
import pkg from '../../package.json' with { type: 'json' };
import { DEFAULT_LIMIT, MAX_LIMIT } from '../../shared/listParams.ts';
import * as accountSchemas from '../../shared/schemas/accounts.ts';
import * as annotationSchemas from '../../shared/schemas/annotations.ts';
import * as geometrySchemas from '../../shared/schemas/geometry.ts';
import * as segmentationSchemas from '../../shared/schemas/segmentation.ts';
import * as aiSchemas from '../../shared/schemas/ais.ts';
import * as postprocessSchemas from '../../shared/schemas/postprocess.ts';
import * as commonSchemas from '../../shared/schemas/common.ts';
import * as documentSchemas from '../../shared/schemas/documents.ts';
import * as projectSchemas from '../../shared/schemas/projects.ts';
import * as taxonomySchemas from '../../shared/schemas/taxonomy.ts';
import { successStatus, type RouteSpec } from './route.ts';

type Json = Record<string, unknown>;

/**
 * Modules whose exported object, record and enum schemas become named components (the export name is
 * the component name), so that e.g. every `Project` response points at one `Project` schema. A schema
 * missing here is simply inlined; a `.meta({ id })` on a schema names it too and takes precedence.
 */
const NAMED_SCHEMA_MODULES: Record<string, unknown>[] = [
  commonSchemas,
  accountSchemas,
  projectSchemas,
  taxonomySchemas,
  documentSchemas,
  annotationSchemas,
  geometrySchemas,
  segmentationSchemas,
  aiSchemas,
  postprocessSchemas,
];

const NAMEABLE_TYPES = new Set(['object', 'record', 'enum']);

function componentNames(): Map<z.ZodType, string> {
  const names = new Map<z.ZodType, string>();
  const taken = new Set<string>();
  for (const mod of NAMED_SCHEMA_MODULES) {
    for (const [exportName, value] of Object.entries(mod)) {
      if (!(value instanceof z.ZodType) || names.has(value) || taken.has(exportName)) continue;
      if (!NAMEABLE_TYPES.has(value.def.type)) continue;
      const global = z.globalRegistry._idmap.get(exportName);
      if (global && global !== value) continue; // the name belongs to another schema's .meta({ id })
      names.set(value, exportName);
      taken.add(exportName);
    }
  }
  return names;
}

/** The global metadata (descriptions, ids) plus our component names, as zod's converter reads it. */
class ComponentRegistry extends z.core.$ZodRegistry<z.core.GlobalMeta> {
  constructor(private readonly names: Map<z.ZodType, string>) {
    super();
  }
  override get<S extends z.core.$ZodType>(schema: S): z.core.$replace<z.core.GlobalMeta, S> | undefined {
    const meta = z.globalRegistry.get(schema);
    const name = this.names.get(schema as unknown as z.ZodType);
    if (!name || meta?.id) return meta;
    return { ...meta, id: name } as z.core.$replace<z.core.GlobalMeta, S>;
  }
}

/**
 * zod says a plain object's output has no other keys (`additionalProperties: false`), but responses
 * come from mappers, not from parsing, and `fields=` drops keys: only strict objects promise that.
 */
function openResponseObjects(ctx: { zodSchema: z.core.$ZodTypes; jsonSchema: z.core.JSONSchema.BaseSchema }): void {
  const def = ctx.zodSchema._zod.def;
  if (def.type === 'object' && def.catchall === undefined && ctx.jsonSchema.additionalProperties === false) delete ctx.jsonSchema.additionalProperties;
}

const COMPONENT_NAME = /^[A-Za-z0-9._-]+$/;

/** Collects component schemas while operations are built; `$defs` of each conversion move here. */
class Components {
  readonly schemas: Record<string, Json> = {};
  /** Component name -> the definition it was first placed with, to tell a repeat from a clash. */
  private readonly placed = new Map<string, string>();
  private readonly registry = new ComponentRegistry(componentNames());

  /**
   * JSON Schema (2020-12, the dialect of OpenAPI 3.1) of a request (`input`) or response (`output`).
   * Only responses use the export-name components; request bodies are inlined, because zod's input
   * and output shapes of one schema differ (defaults, transforms).
   */
  schema(schema: z.ZodType, io: 'input' | 'output'): Json {
    const json = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      // Dates leave the server through JSON.stringify, as ISO strings; other unrepresentables (transforms) stay open.
      unrepresentable: (ctx) => (ctx.zodSchema._zod.def.type === 'date' ? { type: 'string', format: 'date-time' } : 'any'),
      metadata: io === 'output' ? this.registry : z.globalRegistry,
      cycles: 'ref',
      override: io === 'output' ? openResponseObjects : undefined,
    }) as Json;
    delete json.$schema;
    const defs = (json.$defs ?? {}) as Record<string, Json>;
    delete json.$defs;
    const renamed = new Map<string, string>();
    for (const [id, def] of Object.entries(defs)) renamed.set(id, this.place(id, def, io));
    const rewrite = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(rewrite);
      if (node === null || typeof node !== 'object') return node;
      const out: Json = {};
      for (const [k, v] of Object.entries(node)) {
        const def = k === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/') ? renamed.get(v.slice(8).replace(/~1/g, '/').replace(/~0/g, '~')) : undefined;
        out[k] = def ? `#/components/schemas/${def}` : rewrite(v);
      }
      return out;
    };
    for (const [id, name] of renamed) this.schemas[name] = rewrite(defs[id]) as Json;
    return rewrite(json) as Json;
  }

  /** The schema itself when `json` is a reference to one of the components. */
  resolve(json: Json): Json {
    const ref = typeof json.$ref === 'string' && json.$ref.startsWith('#/components/schemas/') ? json.$ref.slice(21) : undefined;
    return ref && this.schemas[ref] ? this.resolve(this.schemas[ref]) : json;
  }

  /** A free component name for a definition: the same name when the content is identical. */
  private place(id: string, def: Json, io: 'input' | 'output'): string {
    const base = COMPONENT_NAME.test(id) ? id : id.replace(/[^A-Za-z0-9._-]/g, '_');
    const candidates = io === 'input' ? [base, `${base}Input`] : [base];
    for (let n = 2; candidates.length < 20; n++) candidates.push(`${base}_${n}`);
    const same = JSON.stringify(def);
    // Identical content shares a name; refs inside `def` still say `#/$defs/...`, so compare as produced.
    for (const name of candidates) {
      if (!(name in this.schemas) || this.placed.get(name) === same) {
        this.placed.set(name, same);
        this.schemas[name] ??= {};
        return name;
      }
    }
    throw new Error(`No free component name for schema "${id}".`);
  }
}

// --- paths and parameters ---------------------------------------------------------------------

interface PathParam {
  name: string;
  /** `:id` params are positive integers (ctx.id()); `*rest` wildcards are path tails. */
  kind: 'int' | 'tail';
}

/** Express path (`/api/v3/projects/:id/`) -> OpenAPI path (`/api/v3/projects/{id}/`). */
export function openApiPath(expressPath: string): { path: string; params: PathParam[] } {
  const params: PathParam[] = [];
  const path = expressPath
    // Express 5 optional groups (`/bbox{/}`): document the longer form, which the route accepts.
    .replace(/[{}]/g, '')
    .replace(/([:*])([A-Za-z_$][\w$]*)/g, (_m, sigil: string, name: string) => {
      params.push({ name, kind: sigil === ':' ? 'int' : 'tail' });
      return `{${name}}`;
    });
  return { path, params };
}

/** Stable and unique per method and path: `get /api/v3/projects/:id/` -> `get_api_v3_projects_by_id`. */
export function operationId(method: string, expressPath: string): string {
  const words = openApiPath(expressPath)
    .path.split('/')
    .filter(Boolean)
    .map((seg) => seg.replace(/^\{(.+)\}$/, 'by_$1').replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, ''))
    .filter(Boolean);
  return [method, ...words].join('_');
}

function queryParam(name: string, description: string, schema: Json = { type: 'string' }): Json {
  return { name, in: 'query', required: false, description, schema };
}

/** Responses of the paging envelope (spec 2.13), also for routes that page without declaring `list`. */
function isEnvelope(schema: z.ZodType | undefined): boolean {
  const shape = schema instanceof z.ZodObject ? (schema.shape as Record<string, unknown>) : undefined;
  return !!shape && ['count', 'next', 'previous', 'results'].every((k) => k in shape);
}

function parameters(spec: RouteSpec, pathParams: PathParam[]): Json[] {
  const out: Json[] = pathParams.map((p) =>
    p.kind === 'int'
      ? { name: p.name, in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }
      : { name: p.name, in: 'path', required: true, schema: { type: 'string' } },
  );
  if (spec.list || isEnvelope(spec.response)) {
    out.push(
      queryParam('limit', `Items per page (default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT}; 0 means the default).`, {
        type: 'integer',
        minimum: 0,
        maximum: MAX_LIMIT,
        default: DEFAULT_LIMIT,
      }),
      queryParam('offset', 'Items skipped from the start.', { type: 'integer', minimum: 0, default: 0 }),
    );
  }
  if (spec.list) {
    const fields = spec.list.ordering;
    out.push(
      queryParam(
        'ordering',
        `Fields to order by, comma-separated; a leading \`-\` reverses the order (\`-${fields[0] ?? 'id'}\`). Allowed: ${fields.map((f) => `\`${f}\``).join(', ') || 'none'}.`,
      ),
      queryParam('created_at_after', 'Only items created after this date (YYYY-MM-DD, the day itself excluded) or ISO 8601 timestamp.', { type: 'string' }),
      queryParam('created_at_before', 'Only items created before this date (YYYY-MM-DD, the day itself excluded) or ISO 8601 timestamp.', { type: 'string' }),
    );
    for (const [name, description] of Object.entries(spec.list.filters)) out.push(queryParam(name, description));
  }
  // server.ts applies sparse fields to every JSON answer of a GET.
  if (spec.method === 'get' && !spec.produces) {
    out.push(queryParam('fields', 'Comma-separated fields to keep in the response (of each result in a list); dots select nested fields (`documents.id`).'));
  }
  for (const [name, description] of Object.entries(spec.query ?? {})) out.push(queryParam(name, description));
  // A name may be declared twice (a filter repeating a convention); OpenAPI wants each once, the first wins.
  return out.filter((p, i) => out.findIndex((q) => q.name === p.name && q.in === p.in) === i);
}

// --- request bodies and responses -------------------------------------------------------------

const BINARY = { type: 'string', format: 'binary', contentMediaType: 'application/octet-stream' };

function requestBody(spec: RouteSpec, components: Components): Json | undefined {
  if (!spec.body || spec.method === 'get') return undefined;
  const schema = components.schema(spec.body, 'input');
  // An empty body is read as `{}`, so a body is optional exactly when `{}` passes the schema.
  const required = !spec.body.safeParse({}).success;
  if (spec.bodyMode === 'multipart') {
    // The file part is added to the fields, so a named fields schema is copied in here. Schemas may
    // declare the file part (data_file) optional (it never reaches them as a field), but an upload needs the file.
    const fields = components.resolve(schema);
    const properties = { ...((fields.properties as Json | undefined) ?? {}) };
    const fileField = spec.fileField ?? 'data_file';
    const declared = properties[fileField] as Json | undefined;
    properties[fileField] = { ...BINARY, description: (declared?.description as string | undefined) ?? 'the file' };
    const req = new Set([...((fields.required as string[] | undefined) ?? []), fileField]);
    return {
      required: true,
      content: { 'multipart/form-data': { schema: { ...fields, type: 'object', properties, required: [...req] } } },
    };
  }
  const content: Json = { 'application/json': { schema } };
  // Forms carry flat key/value pairs: only object bodies can be sent form-encoded.
  if (components.resolve(schema).type === 'object') content['application/x-www-form-urlencoded'] = { schema };
  return { required, content };
}

const STATUS_TEXT: Record<number, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No content' };

function responses(spec: RouteSpec, components: Components, pathParams: PathParam[], hasQuery: boolean): Json {
  const status = successStatus(spec);
  const ok: Json = { description: STATUS_TEXT[status] ?? 'Success' };
  if (status !== 204) {
    if (spec.produces) ok.content = { [spec.produces]: { schema: spec.produces.startsWith('text/') ? { type: 'string' } : BINARY } };
    else ok.content = { 'application/json': { schema: spec.response ? components.schema(spec.response, 'output') : {} } };
  }
  const out: Json = { [String(status)]: ok };
  if (spec.body || hasQuery) out['400'] = { $ref: '#/components/responses/ValidationError' };
  if (spec.auth !== 'public') out['401'] = { $ref: '#/components/responses/Unauthorized' };
  if (pathParams.length) out['404'] = { $ref: '#/components/responses/NotFound' };
  if (spec.throttled) out['429'] = { $ref: '#/components/responses/TooManyLogins' };
  return out;
}

// --- the document -------------------------------------------------------------------------------

const SECURITY_SCHEMES = {
  Basic: {
    type: 'http',
    scheme: 'basic',
    description: 'The account email and password. Discouraged for scripts. Failed Basic logins count toward the login limits: past them, 429 with Retry-After.',
  },
  Token: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: 'Token <token>: the header value is the word `Token`, a space and the token from `POST /api/v3/auth/`.',
  },
  TokenQuery: {
    type: 'apiKey',
    in: 'query',
    name: 'token',
    description: 'The token as the `token` query parameter, for tools that cannot set headers. GET requests only.',
  },
};

const HEADER_AUTH = [{ Basic: [] }, { Token: [] }];
const GET_AUTH = [...HEADER_AUTH, { TokenQuery: [] }];

const DESCRIPTION = `Folio's local document-extraction REST API.

**Authentication.** Every endpoint except login needs credentials: HTTP Basic with the account email and password; the header \`Authorization: Token <token>\` with the token from \`POST /api/v3/auth/\` (recommended for scripts: it stays the same until \`DELETE /api/v3/auth/\` deletes it); or, on GET requests only, the query parameter \`token=<token>\` for software that cannot set headers (such as a spreadsheet loading a CSV export).

**Conventions.** Request bodies are JSON or form-encoded (\`application/x-www-form-urlencoded\`); the document upload is \`multipart/form-data\`. Creating answers 201, reading and changing 200, deleting 204. PUT needs every required field, PATCH only the fields to change. Invalid requests answer 400 with \`{"field": ["message"]}\` (\`non_field_errors\` for the request as a whole); missing or wrong credentials 401; unknown records, and records of projects the caller is not a member of, 404 with \`{"detail": "..."}\`.

**Lists** are paginated with \`limit\` (default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT}) and \`offset\`, and answer \`{count, next, previous, results}\` with absolute \`next\`/\`previous\` URLs. \`ordering\` takes comma-separated field names, a leading \`-\` reverses; \`created_at_after\` and \`created_at_before\` take YYYY-MM-DD (bounds excluded); \`fields\` keeps only the named fields of a GET response.`;

const ERROR_RESPONSES = {
  ValidationError: {
    description: 'Invalid request: messages keyed by field, or `{detail}` for a body that could not be read',
    content: { 'application/json': { schema: { anyOf: [{ $ref: '#/components/schemas/FieldErrors' }, { $ref: '#/components/schemas/Detail' }] } } },
  },
  Unauthorized: {
    description: 'No credentials, or wrong ones',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Detail' } } },
  },
  NotFound: {
    description: 'No such record, or one of a project the caller is not a member of',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Detail' } } },
  },
  TooManyLogins: {
    description: 'Too many failed logins for this account or from this address: no password is checked until Retry-After has passed',
    headers: { 'Retry-After': { description: 'Seconds until a login will be checked again', schema: { type: 'integer', minimum: 1 } } },
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Detail' } } },
  },
};

export function buildOpenApiDocument(routes: readonly RouteSpec[]): Json {
  const components = new Components();
  // The error responses refer to these two by name (see NAMED_SCHEMA_MODULES).
  components.schema(commonSchemas.Detail, 'output');
  components.schema(commonSchemas.FieldErrors, 'output');
  // Responses first, so that a schema named in both gets its plain name on the response side.
  for (const spec of routes) if (spec.response) components.schema(spec.response, 'output');

  const paths: Record<string, Record<string, Json>> = {};
  const usedIds = new Set<string>();
  const tags: string[] = [];
  for (const spec of routes) {
    const { path, params } = openApiPath(spec.path);
    const item = (paths[path] ??= {});
    if (item[spec.method]) continue; // Express serves the first route registered for a method and path.
    let id = operationId(spec.method, spec.path);
    for (let n = 2; usedIds.has(id); n++) id = `${operationId(spec.method, spec.path)}_${n}`;
    usedIds.add(id);
    if (!tags.includes(spec.tag)) tags.push(spec.tag);

    const parameterList = parameters(spec, params);
    const op: Json = {
      operationId: id,
      tags: [spec.tag],
      summary: spec.summary,
      ...(spec.description ? { description: spec.description } : {}),
      ...(parameterList.length ? { parameters: parameterList } : {}),
    };
    const body = requestBody(spec, components);
    if (body) op.requestBody = body;
    op.responses = responses(spec, components, params, parameterList.some((p) => p.in === 'query' && p.name !== 'fields'));
    op.security = spec.auth === 'public' ? [] : spec.method === 'get' ? GET_AUTH : HEADER_AUTH;
    item[spec.method] = op;
  }

  return {
    openapi: '3.1.0',
    info: { title: 'Folio', version: pkg.version, description: DESCRIPTION },
    tags: tags.map((name) => ({ name })),
    security: HEADER_AUTH,
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(components.schemas).sort(([a], [b]) => a.localeCompare(b))),
      responses: ERROR_RESPONSES,
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}

const built = new WeakMap<readonly RouteSpec[], Json>();

/**
 * The document of a server's routes (the caller passes them: allRoutes, which this module does not import,
 * since the routes that serve the document are among them). Built once per list, on first request: the
 * routes never change while running.
 */
export function openApiDocument(routes: readonly RouteSpec[]): Json {
  let doc = built.get(routes);
  if (!doc) built.set(routes, (doc = buildOpenApiDocument(routes)));
  return doc;
}
