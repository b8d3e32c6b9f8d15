// The state every form of the setup shares: busy while the API works, and the API's refusal split into
// messages per field (shown under that field) and one for the form when no field of it is named.
import { useCallback, useState } from 'react';
import { ApiError } from '../../api/transport.ts';

export interface Submit {
  busy: boolean;
  /** Runs the request; resolves true when it succeeded. */
  run(fn: () => Promise<unknown>): Promise<boolean>;
  /** The API's messages for one field, or null. */
  fieldError(field: string): string | null;
  /** The refusal as a whole, when it names none of the form's fields. */
  formError: string | null;
  reset(): void;
}

export function useSubmit(fields: readonly string[]): Submit {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);

  const run = useCallback(async (fn: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
      return true;
    } catch (err) {
      setError(err as Error);
      return false;
    } finally {
      setBusy(false);
    }
  }, []);

  const fieldError = (field: string) => {
    const messages = error instanceof ApiError ? error.fieldErrors(field) : [];
    return messages.length ? messages.join(' ') : null;
  };
  const formError = error && !fields.some((f) => fieldError(f)) ? error.message : null;
  return { busy, run, fieldError, formError, reset: () => setError(null) };
}

/** The aria attributes of an input whose message (if any) is shown in the element `${id}-error`. */
export function invalid(id: string, error: string | null) {
  return error ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-error` } : {};
}
