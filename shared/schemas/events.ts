// Events (spec 6): the record of completion-callback attempts and the email outbox, as the API lists them.
import { z } from 'zod';
import { Id, Timestamp } from './common.ts';

export const OutboxState = z.enum(['queued', 'sent', 'kept', 'failed']).meta({
  id: 'OutboxState',
  description: 'queued: being sent; sent: accepted by the SMTP server; kept: no SMTP server configured; failed: see last_error',
});

export const OutboxMessage = z
  .object({
    id: Id,
    to: z.string().describe('recipient email'),
    subject: z.string(),
    text: z.string(),
    html: z.string().nullable(),
    kind: z.string().describe('what the message is about: upload (to the assignee), training (to the requester)'),
    document: Id.nullable(),
    state: OutboxState,
    attempts: z.number().int().describe('SMTP deliveries tried'),
    last_error: z.string().nullable(),
    created_at: Timestamp,
    sent_at: Timestamp.nullable(),
  })
  .meta({ id: 'OutboxMessage' });

export const CallbackAttempt = z
  .object({
    id: Id,
    document: Id,
    url: z.string(),
    attempt: z.number().int().describe('1-based within one delivery'),
    status_code: z.number().int().nullable().describe("the receiver's HTTP status; null when no answer came"),
    ok: z.boolean().describe('the receiver answered 2xx'),
    error: z.string().nullable(),
    duration_ms: z.number().int(),
    created_at: Timestamp,
  })
  .meta({ id: 'CallbackAttempt' });
