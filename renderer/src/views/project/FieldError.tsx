// A field's message from the API, tied to its input by id (see `invalid` in useSubmit.ts).
export function FieldError({ id, error }: { id: string; error: string | null }) {
  if (!error) return null;
  return (
    <p id={`${id}-error`} className="error" role="alert">
      {error}
    </p>
  );
}
