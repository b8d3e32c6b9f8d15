// Spec sections 1 and 4: the OpenAPI 3.1 description (generated from the route objects) and the
// Swagger UI at /swagger, against a real server.
import { validate, compileErrors } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { allRoutes } from '../../main/http/routes/index.ts';
import { buildOpenApiDocument, openApiPath, operationId } from '../../main/http/openapi.ts';
import { route } from '../../main/http/route.ts';
import { Project } from '../../shared/schemas/projects.ts';
import { ADMIN, startTestServer, type TestServer } from '../helpers/testServer.ts';

let s: TestServer;
let doc: any;
beforeAll(async () => {
  s = await startTestServer();
  const r = await s.admin.get('/api/v3/openapi.json');
  expect(r.status).toBe(200);
  doc = r.body;
});
afterAll(() => s.close());

const basic = `Basic ${Buffer.from(`${ADMIN.email}:${ADMIN.password}`).toString('base64')}`;

/** Follows a local `$ref` (`#/components/...`) to what it points at. */
function deref(node: any): any {
  while (node?.$ref) node = node.$ref.slice(2).split('/').reduce((o: any, k: string) => o[k], doc);
  return node;
}

/** A value valid by a (simple) JSON Schema: required properties only, each the smallest valid value. */
function sample(schema: any): unknown {
  schema = deref(schema);
  if (schema.anyOf) return sample(schema.anyOf[0]);
  if (schema.enum) return schema.enum[0];
  switch (Array.isArray(schema.type) ? schema.type[0] : schema.type) {
    case 'object':
      return Object.fromEntries((schema.required ?? []).map((k: string) => [k, sample(schema.properties[k])]));
    case 'string':
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return true;
    case 'array':
      return [];
    default:
      return null;
  }
}

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 description', async () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: 'Folio', version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    const result = await validate(structuredClone(doc));
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it('describes every route with its method, a unique operationId and the success status', () => {
    const ids = new Set<string>();
    for (const spec of allRoutes) {
      const { path } = openApiPath(spec.path);
      const op = doc.paths[path]?.[spec.method];
      expect(op, `${spec.method.toUpperCase()} ${spec.path}`).toBeDefined();
      expect(op.operationId).toBe(operationId(spec.method, spec.path));
      expect(ids.has(op.operationId), op.operationId).toBe(false);
      ids.add(op.operationId);
      expect(op.tags).toEqual([spec.tag]);
      expect(op.summary).toBe(spec.summary);
      for (const [, name] of spec.path.matchAll(/:(\w+)/g)) {
        expect(op.parameters.find((p: any) => p.in === 'path' && p.name === name)?.schema.type, `${spec.path} ${name}`).toBe('integer');
      }
      expect(op.security).toEqual(spec.auth === 'public' ? [] : expect.arrayContaining([{ Token: [] }, { Basic: [] }]));
      if (spec.auth !== 'public') expect(op.responses['401']).toBeDefined();
      if (spec.body) expect(op.responses['400']).toBeDefined();
    }
  });

  it('documents the list parameters on list routes', () => {
    const lists = allRoutes.filter((r) => r.list);
    expect(lists.length).toBeGreaterThan(0);
    for (const spec of lists) {
      const params = doc.paths[openApiPath(spec.path).path][spec.method].parameters;
      const byName = (n: string) => params.find((p: any) => p.in === 'query' && p.name === n);
      for (const name of ['limit', 'offset', 'ordering', 'fields', 'created_at_after', 'created_at_before', ...Object.keys(spec.list!.filters)]) {
        expect(byName(name), `${spec.path} ${name}`).toBeDefined();
      }
      expect(byName('limit').schema).toMatchObject({ type: 'integer', default: 100, maximum: 1000 });
      for (const field of spec.list!.ordering) expect(byName('ordering').description).toContain(field);
    }
  });

  it('declares Basic, Token and ?token= authentication', () => {
    expect(doc.components.securitySchemes).toMatchObject({
      Basic: { type: 'http', scheme: 'basic' },
      Token: { type: 'apiKey', in: 'header', name: 'Authorization', description: expect.stringContaining('Token <token>') },
      TokenQuery: { type: 'apiKey', in: 'query', name: 'token' },
    });
    expect(doc.paths['/api/v3/auth/'].post.security).toEqual([]);
    expect(doc.paths['/api/v3/projects/'].get.security).toContainEqual({ TokenQuery: [] });
    expect(doc.paths['/api/v3/projects/'].post.security).not.toContainEqual({ TokenQuery: [] });
  });

  it('uses named components for responses and the shared error bodies', () => {
    const list = doc.paths['/api/v3/projects/'].get.responses['200'].content['application/json'].schema;
    expect(list.properties.results.items).toEqual({ $ref: '#/components/schemas/Project' });
    expect(deref(list.properties.results.items).required).toContain('name');
    expect(doc.paths['/api/v3/projects/{id}/'].get.responses['404']).toEqual({ $ref: '#/components/responses/NotFound' });
    expect(deref({ $ref: '#/components/responses/NotFound' }).content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Detail' });
    expect(doc.components.schemas.FieldErrors).toMatchObject({ type: 'object', additionalProperties: { type: 'array' } });
    expect(doc.paths['/api/v3/projects/{id}/'].delete.responses['204'].content).toBeUndefined();
  });

  it('describes request bodies as the server validates them', async () => {
    const body = doc.paths['/api/v3/projects/'].post.requestBody;
    expect(body.required).toBe(true);
    expect(Object.keys(body.content).sort()).toEqual(['application/json', 'application/x-www-form-urlencoded']);
    const schema = body.content['application/json'].schema;
    expect(schema.required).toContain('name');

    const valid = sample(schema) as Record<string, unknown>;
    const created = await s.admin.post('/api/v3/projects/', valid);
    expect(created.status, created.text).toBe(201);
    const asForm = await s.admin.request('POST', '/api/v3/projects/', { body: valid, form: true });
    expect(asForm.status, asForm.text).toBe(201);

    const { name: _name, ...withoutName } = valid;
    const refused = await s.admin.post('/api/v3/projects/', withoutName);
    expect(refused.status).toBe(400);
    expect(refused.body.name).toEqual(['This field is required.']);

    const tooLong = await s.admin.post('/api/v3/projects/', { ...valid, name: 'x'.repeat(schema.properties.name.maxLength + 1) });
    expect(tooLong.status).toBe(400);
    // PATCH changes only what it names: an empty body is allowed, so the body is optional.
    expect(doc.paths['/api/v3/projects/{id}/'].patch.requestBody.required).toBe(false);
  });

  it('documents multipart routes as multipart/form-data with a binary file part (data_file, or the route\'s own)', () => {
    const multipart = allRoutes.filter((r) => r.bodyMode === 'multipart');
    expect(multipart.map((r) => r.fileField ?? 'data_file')).toContain('file');
    for (const spec of multipart) {
      const field = spec.fileField ?? 'data_file';
      const content = doc.paths[openApiPath(spec.path).path][spec.method].requestBody.content;
      expect(Object.keys(content)).toEqual(['multipart/form-data']);
      expect(content['multipart/form-data'].schema.properties[field]).toMatchObject({ type: 'string', format: 'binary' });
      expect(content['multipart/form-data'].schema.required).toContain(field);
    }
  });

  it('describes any route object validly (routes other modules may add)', async () => {
    const Upload = z.object({ project: z.number().int(), sync: z.boolean().default(false) }).meta({ id: 'UploadFields' });
    const routes = [
      route({ method: 'post', path: '/api/v3/things/', tag: 't', summary: 'upload', bodyMode: 'multipart', body: Upload, response: Upload, status: 202, handler: () => null }),
      route({ method: 'get', path: '/doc/show/:id/', tag: 't', summary: 'file', produces: 'application/pdf', query: { token: 'GET token' }, handler: () => null }),
      route({ method: 'post', path: '/api/v3/things/:id/split/', tag: 't', summary: 'list body', body: z.array(z.object({ pages: z.array(z.number()) })), response: z.array(Project), handler: () => null }),
      route({ method: 'get', path: '/pub/*rest', tag: 'u', summary: 'public', auth: 'public', response: z.object({ at: z.date(), n: z.string().transform(Number) }), handler: () => null }),
    ];
    const built: any = buildOpenApiDocument(routes);
    const result = await validate(structuredClone(built));
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);

    const upload = built.paths['/api/v3/things/'].post;
    const form = upload.requestBody.content['multipart/form-data'].schema;
    expect(Object.keys(upload.requestBody.content)).toEqual(['multipart/form-data']);
    expect(form.properties.data_file).toMatchObject({ type: 'string', format: 'binary' });
    expect(form.required).toEqual(['project', 'data_file']);
    expect(upload.responses['202'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/UploadFields' });
    expect(built.components.schemas.UploadFields.required).toContain('sync'); // output: the default is filled in
    expect(built.paths['/doc/show/{id}/'].get.responses['200'].content).toHaveProperty('application/pdf');
    expect(built.paths['/doc/show/{id}/'].get.parameters.map((p: any) => p.name)).toEqual(['id', 'token']);
    const split = built.paths['/api/v3/things/{id}/split/'].post;
    expect(Object.keys(split.requestBody.content)).toEqual(['application/json']); // a list cannot be form-encoded
    expect(split.responses['201'].content['application/json'].schema.items).toEqual({ $ref: '#/components/schemas/Project' });
    const pub = built.paths['/pub/{rest}'].get;
    expect(pub.security).toEqual([]);
    expect(pub.parameters[0]).toMatchObject({ name: 'rest', in: 'path', schema: { type: 'string' } });
  });

  it('is also served at /swagger.json and /swagger/?format=openapi', async () => {
    const a = await s.admin.get('/swagger.json');
    expect(a.status).toBe(200);
    expect(a.body).toEqual(doc);
    const b = await s.anonymous().get('/swagger/?format=openapi', { headers: { Authorization: basic } });
    expect(b.status).toBe(200);
    expect(b.headers.get('content-type')).toMatch(/application\/json/);
    expect(b.body).toEqual(doc);
    const c = await s.anonymous().get(`/api/v3/openapi.json?token=${s.admin.token}`);
    expect(c.status).toBe(200);
  });

  it('needs a login', async () => {
    for (const url of ['/api/v3/openapi.json', '/swagger.json']) {
      const r = await s.anonymous().get(url);
      expect(r.status, url).toBe(401);
      expect(r.body.detail).toMatch(/credentials/i);
    }
  });
});

describe('Swagger UI at /swagger', () => {
  it('asks a browser for a Basic login, also after a wrong password', async () => {
    const wrong = `Basic ${Buffer.from(`${ADMIN.email}:wrong`).toString('base64')}`;
    for (const [url, headers] of [
      ['/swagger', {}],
      ['/swagger/', {}],
      ['/swagger/?format=openapi', {}],
      ['/swagger/', { Authorization: wrong }],
    ] as const) {
      const r = await s.anonymous().get(url, { headers });
      expect(r.status, url).toBe(401);
      expect(r.headers.get('www-authenticate')).toBe('Basic realm="Folio API reference"');
      expect(r.text).not.toContain('swagger-ui-bundle');
    }
  });

  it('serves the page, our initializer and the Swagger UI files from the installed package', async () => {
    for (const url of ['/swagger', '/swagger/']) {
      const page = await s.anonymous().get(url, { headers: { Authorization: basic } });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/text\/html/);
      expect(page.text).toContain('/swagger/folio-initializer.js');
      expect(page.text).not.toMatch(/https?:\/\//); // nothing from the internet
    }
    expect((await s.admin.get('/swagger/')).status).toBe(200); // Token works as well

    const init = await s.anonymous().get('/swagger/folio-initializer.js');
    expect(init.status).toBe(200);
    expect(init.headers.get('content-type')).toMatch(/javascript/);
    expect(init.text).toContain('/swagger/?format=openapi');
    expect(init.text).not.toMatch(/https?:\/\//);

    const bundle = await s.anonymous().get('/swagger/swagger-ui-bundle.js');
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/javascript/);
    expect(bundle.text).toContain('SwaggerUIBundle');
    const css = await s.anonymous().get('/swagger/swagger-ui.css');
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/text\/css/);

    // The package's own initializer points at a demo API on the internet: not served.
    expect((await s.anonymous().get('/swagger/swagger-initializer.js')).status).toBe(404);
    expect((await s.anonymous().get('/swagger/..%2Fpackage.json')).status).toBe(404);
  });
});
