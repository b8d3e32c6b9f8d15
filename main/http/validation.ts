// Request body validation with zod: form-encoded values are coerced to the schema's types first
// (forms only carry strings), and zod issues become the `{"field": ["message"]}` body of compat.md.
import { z } from 'zod';
import { ValidationError } from '../domain/errors.ts';

z.config({
  customError: (issue) => {
    if (issue.code === 'invalid_type' && issue.input === undefined) return 'This field is required.';
    if (issue.code === 'invalid_type' && issue.input === null) return 'This field may not be null.';
    return undefined;
  },
});

type Def = { type: string; innerType?: z.ZodType; element?: z.ZodType; in?: z.ZodType; options?: z.ZodType[] };
const defOf = (t: z.ZodType): Def => (t as unknown as { _zod: { def: Def } })._zod.def;

/** The schema's core type, looking through optional, nullable, default and pipes. */
function baseDef(t: z.ZodType): Def {
  let d = defOf(t);
  for (;;) {
    if ((d.type === 'optional' || d.type === 'nullable' || d.type === 'default' || d.type === 'prefault') && d.innerType) d = defOf(d.innerType);
    else if (d.type === 'pipe' && d.in) d = defOf(d.in);
    else return d;
  }
}

const TRUE = new Set(['true', '1', 'yes', 'on']);
const FALSE = new Set(['false', '0', 'no', 'off']);

function coerceScalar(value: unknown, def: Def): unknown {
  if (typeof value !== 'string') return value;
  const v = value.trim();
  switch (def.type) {
    case 'number':
    case 'int':
      if (v === '') return null;
      return /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : value;
    case 'boolean':
      if (TRUE.has(v.toLowerCase())) return true;
      if (FALSE.has(v.toLowerCase())) return false;
      return value;
    case 'union':
      // e.g. id-or-object fields: a form can only send the id.
      return def.options?.some((o) => ['number', 'int'].includes(baseDef(o).type)) && /^-?\d+$/.test(v) ? Number(v) : value;
    default:
      return value;
  }
}

/** Turns a form body (all strings, repeated keys as arrays) into the types `schema` expects. */
export function coerceForm(schema: z.ZodType, body: Record<string, unknown>): Record<string, unknown> {
  const def = baseDef(schema) as Def & { shape?: Record<string, z.ZodType> };
  const shape = def.type === 'object' ? (schema as unknown as { shape?: Record<string, z.ZodType> }).shape ?? (def as { shape?: Record<string, z.ZodType> }).shape : undefined;
  if (!shape) return body;
  const out: Record<string, unknown> = { ...body };
  for (const [key, field] of Object.entries(shape)) {
    if (!(key in out)) continue;
    const fd = baseDef(field);
    const raw = out[key];
    if (fd.type === 'array') {
      const items = Array.isArray(raw) ? raw : raw === '' ? [] : String(raw).split(',');
      out[key] = fd.element ? items.map((x) => coerceScalar(x, baseDef(fd.element!))) : items;
    } else {
      out[key] = coerceScalar(Array.isArray(raw) ? raw[raw.length - 1] : raw, fd);
    }
  }
  return out;
}

export function zodToFields(error: z.ZodError): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : 'non_field_errors';
    (fields[key] ??= []).push(issue.message);
  }
  return fields;
}

export function validate<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const r = schema.safeParse(input);
  if (!r.success) throw new ValidationError(zodToFields(r.error));
  return r.data;
}
