// Building blocks for request and response schemas (zod). These schemas validate requests on the
// server, describe them in the OpenAPI document, and type the renderer's client.
import { z } from 'zod';

export const Id = z.number().int().positive();
export const Timestamp = z.string().describe('ISO 8601 timestamp with offset');
export const Name = z.string().trim().min(1, 'This field may not be blank.').max(255, 'Ensure this field has no more than 255 characters.');

/** An id, or an object carrying one (clients send either for related records). */
export const IdOrObject = z.union([Id, z.object({ id: Id }).transform((o) => o.id)]);

export const Detail = z.object({ detail: z.string() }).describe('Error with a human-readable reason');
export const FieldErrors = z.record(z.string(), z.array(z.string())).describe('Validation errors keyed by field');

export function envelope<T extends z.ZodType>(item: T) {
  return z.object({
    count: z.number().int(),
    next: z.string().nullable(),
    previous: z.string().nullable(),
    results: z.array(item),
  });
}
