// The `fields` query parameter: keeps only the named fields of a response, nested with dots
// (`fields=id,documents.id`). Lists apply it to each result; unknown names are ignored.

type FieldTree = { [name: string]: FieldTree | true };

export function parseFields(raw: string | undefined): FieldTree | undefined {
  if (!raw) return undefined;
  // No prototype: a requested name such as "__proto__" or "constructor" is only ever a key of this tree.
  const tree: FieldTree = Object.create(null);
  for (const path of raw.split(',').map((s) => s.trim()).filter(Boolean)) {
    let node = tree;
    const parts = path.split('.');
    parts.forEach((part, i) => {
      if (i === parts.length - 1) {
        node[part] = node[part] ?? true;
      } else {
        const child = node[part];
        if (child === true) return; // the whole field is already kept
        node = node[part] = (child as FieldTree) ?? Object.create(null);
      }
    });
  }
  return Object.keys(tree).length ? tree : undefined;
}

export function applyFields(value: unknown, tree: FieldTree): unknown {
  if (Array.isArray(value)) return value.map((v) => applyFields(v, tree));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [name, sub] of Object.entries(tree)) {
    if (!Object.hasOwn(value as object, name)) continue;
    const v = (value as Record<string, unknown>)[name];
    out[name] = sub === true ? v : applyFields(v, sub);
  }
  return out;
}

/** Applies `fields` to a detail object or to the `results` of a paging envelope. */
export function applySparseFields(body: unknown, raw: string | undefined): unknown {
  const tree = parseFields(raw);
  if (!tree || body === null || typeof body !== 'object') return body;
  const b = body as Record<string, unknown>;
  if (Array.isArray(b.results) && 'count' in b) return { ...b, results: applyFields(b.results, tree) };
  return applyFields(body, tree);
}
