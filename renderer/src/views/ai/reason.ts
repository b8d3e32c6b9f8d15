// The sentence to show for a failed API call. A 400 answer names fields (`{"category": ["..."]}`) whose
// messages already say what is wrong; the field names are for programs, so they are left out here.
import { ApiError } from '../../api/transport.ts';

export function reasonOf(err: unknown): string {
  if (err instanceof ApiError && err.status === 400 && err.body && typeof err.body === 'object' && !Array.isArray(err.body)) {
    const messages = Object.values(err.body as Record<string, unknown>).flatMap((v) => (Array.isArray(v) ? v.map(String) : typeof v === 'string' ? [v] : []));
    if (messages.length) return messages.join(' ');
  }
  return err instanceof Error ? err.message : String(err);
}
