// The conventions every list and body shares (spec section 4, compat.md), checked on projects:
// paging envelope, ordering, sparse fields, date bounds, body encodings and the error bodies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/testServer.ts';
import { MAX_LIMIT } from '../../shared/listParams.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({});
  for (const name of ['Delta', 'alpha', 'Charlie', 'bravo', 'Alpha']) {
    expect((await s.admin.post('/api/v3/projects/', { name })).status).toBe(201);
  }
});
afterAll(() => s.close());

describe('paging', () => {
  it('answers the envelope with absolute next and previous', async () => {
    const first = await s.admin.get('/api/v3/projects/?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.count).toBe(5);
    expect(first.body.results).toHaveLength(2);
    expect(first.body.previous).toBeNull();
    expect(first.body.next).toBe(`${s.url}/api/v3/projects/?limit=2&offset=2`);

    const second = await s.admin.get(first.body.next);
    expect(second.body.results.map((p: any) => p.name)).toEqual(['Charlie', 'bravo']);
    expect(second.body.previous).toBe(`${s.url}/api/v3/projects/?limit=2`);
    const last = await s.admin.get(second.body.next);
    expect(last.body.results).toHaveLength(1);
    expect(last.body.next).toBeNull();
  });

  it('keeps other query parameters in next and previous', async () => {
    const r = await s.admin.get('/api/v3/projects/?ordering=-id&limit=1&offset=1');
    expect(new URL(r.body.next).searchParams.get('ordering')).toBe('-id');
    expect(new URL(r.body.previous).searchParams.get('offset')).toBeNull();
  });

  it('caps limit at the documented maximum and refuses a negative one', async () => {
    const big = await s.admin.get(`/api/v3/projects/?limit=${MAX_LIMIT * 10}`);
    expect(big.status).toBe(200);
    expect(big.body.results).toHaveLength(5);
    const bad = await s.admin.get('/api/v3/projects/?limit=-1');
    expect(bad.status).toBe(400);
    expect(bad.body.limit[0]).toMatch(/whole number/);
    expect((await s.admin.get('/api/v3/projects/?offset=x')).body.offset).toBeDefined();
  });
});

describe('ordering, filters and fields', () => {
  it('orders by several fields, a leading minus reversing', async () => {
    const byName = await s.admin.get('/api/v3/projects/?ordering=name,-id');
    expect(byName.body.results.map((p: any) => p.name)).toEqual(['Alpha', 'Charlie', 'Delta', 'alpha', 'bravo']);
    const desc = await s.admin.get('/api/v3/projects/?ordering=-id');
    const ids = desc.body.results.map((p: any) => p.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it('refuses an unknown ordering field, naming the allowed ones', async () => {
    const r = await s.admin.get('/api/v3/projects/?ordering=password');
    expect(r.status).toBe(400);
    expect(r.body.ordering[0]).toMatch(/Allowed: id, name/);
  });

  it('filters, and refuses a filter value of the wrong type', async () => {
    const r = await s.admin.get('/api/v3/projects/?name=ALPHA');
    expect(r.body.count).toBe(2);
    const bad = await s.admin.get('/api/v3/projects/?id=abc');
    expect(bad.status).toBe(400);
    expect(bad.body.id[0]).toMatch(/integer/);
  });

  it('keeps only the requested fields, on lists and details', async () => {
    const list = await s.admin.get('/api/v3/projects/?fields=id,name&limit=1');
    expect(Object.keys(list.body.results[0]).sort()).toEqual(['id', 'name']);
    expect(list.body.count).toBe(5);
    const detail = await s.admin.get(`/api/v3/projects/${list.body.results[0].id}/?fields=name`);
    expect(detail.body).toEqual({ name: list.body.results[0].name });
  });

  it('treats created_at_after and created_at_before as exclusive dates', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect((await s.admin.get(`/api/v3/projects/?created_at_after=${yesterday}`)).body.count).toBe(5);
    expect((await s.admin.get(`/api/v3/projects/?created_at_after=${today}`)).body.count).toBe(0);
    expect((await s.admin.get(`/api/v3/projects/?created_at_before=${tomorrow}`)).body.count).toBe(5);
    expect((await s.admin.get(`/api/v3/projects/?created_at_before=${today}`)).body.count).toBe(0);
    const bad = await s.admin.get('/api/v3/projects/?created_at_after=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.body.created_at_after[0]).toMatch(/YYYY-MM-DD/);
  });
});

describe('bodies', () => {
  it('accepts form-encoded bodies and ignores a query string on POST', async () => {
    const r = await s.admin.request('POST', '/api/v3/projects/?limit=1000', { body: { name: 'Form made' }, form: true });
    expect(r.status).toBe(201);
    expect(r.body.name).toBe('Form made');
    await s.admin.delete(`/api/v3/projects/${r.body.id}/`);
  });

  it('answers bad JSON with 400 and a reason', async () => {
    const r = await s.admin.request('POST', '/api/v3/projects/', { raw: { data: '{"name": ', contentType: 'application/json' } });
    expect(r.status).toBe(400);
    expect(r.body.detail).toMatch(/JSON parse error/);
  });

  it('answers wrong types with 400 naming the field', async () => {
    const r = await s.admin.post('/api/v3/projects/', { name: 42 });
    expect(r.status).toBe(400);
    expect(r.body.name[0]).toMatch(/expected string/);
    const arr = await s.admin.post('/api/v3/projects/', [1, 2]);
    expect(arr.status).toBe(400);
  });

  it('answers an oversized body with 413', async () => {
    const r = await s.admin.post('/api/v3/projects/', { name: 'x'.repeat(3 * 1024 * 1024) });
    expect(r.status).toBe(413);
    expect(r.body.detail).toMatch(/too large/);
  });

  it('answers an unsupported content type with 415', async () => {
    const r = await s.admin.request('POST', '/api/v3/projects/', { raw: { data: 'name=x', contentType: 'text/plain' } });
    expect(r.status).toBe(415);
    expect(r.body.detail).toMatch(/application\/json/);
  });

  it('PUT needs every required field; PATCH changes only what it names', async () => {
    const p = (await s.admin.post('/api/v3/projects/', { name: 'Before' })).body;
    const put = await s.admin.put(`/api/v3/projects/${p.id}/`, {});
    expect(put.status).toBe(400);
    expect(put.body.name).toEqual(['This field is required.']);
    const patch = await s.admin.patch(`/api/v3/projects/${p.id}/`, {});
    expect(patch.status).toBe(200);
    expect(patch.body.name).toBe('Before');
    expect((await s.admin.patch(`/api/v3/projects/${p.id}/`, { name: 'After' })).body.name).toBe('After');
    expect((await s.admin.delete(`/api/v3/projects/${p.id}/`)).status).toBe(204);
    expect((await s.admin.get(`/api/v3/projects/${p.id}/`)).status).toBe(404);
  });
});

describe('addresses', () => {
  it('serves detail routes with and without the trailing slash, and 404s non-numeric ids', async () => {
    const p = (await s.admin.get('/api/v3/projects/?limit=1')).body.results[0];
    expect((await s.admin.get(`/api/v3/projects/${p.id}`)).status).toBe(200);
    const r = await s.admin.get('/api/v3/projects/abc/');
    expect(r.status).toBe(404);
    expect(r.body.detail).toBeDefined();
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const r = await s.admin.get('/api/v3/nothing-here/');
    expect(r.status).toBe(404);
    expect(r.body.detail).toMatch(/No endpoint GET \/api\/v3\/nothing-here\//);
  });

  it('writes timestamps with an explicit offset', async () => {
    const p = (await s.admin.get('/api/v3/projects/?limit=1')).body.results[0];
    expect(p.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
  });
});
