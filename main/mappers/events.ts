// Events (spec 6) as the API shows them: the email outbox and the completion-callback attempts.
// Why mappers live in main/mappers: dto.ts.
import type { CallbackAttemptRow, OutboxRow } from '../store/schema.ts';
import { isoOut } from './dto.ts';

export const outboxMessageOut = (m: OutboxRow) => ({
  id: m.id,
  to: m.to_address,
  subject: m.subject,
  text: m.text,
  html: m.html,
  kind: m.kind,
  document: m.document_id,
  state: m.state,
  attempts: m.attempts,
  last_error: m.last_error,
  created_at: isoOut(m.created_at),
  sent_at: isoOut(m.sent_at),
});

export const callbackAttemptOut = (a: CallbackAttemptRow) => ({
  id: a.id,
  document: a.document_id,
  url: a.url,
  attempt: a.attempt,
  status_code: a.status_code,
  ok: a.status_code !== null && a.status_code >= 200 && a.status_code < 300,
  error: a.error,
  duration_ms: a.duration_ms,
  created_at: isoOut(a.created_at),
});
