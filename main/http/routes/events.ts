// Events (spec 6): the email outbox and the completion-callback attempts of a document.
import { route, type RouteSpec } from '../route.ts';
import { envelope } from '../../../shared/schemas/common.ts';
import { CallbackAttempt, OutboxMessage } from '../../../shared/schemas/events.ts';
import { callbackAttemptOut, outboxMessageOut } from '../../mappers/events.ts';

export const eventRoutes: RouteSpec[] = [
  route({
    method: 'get',
    path: '/api/v3/outbox/',
    tag: 'events',
    summary: "Emails Folio wrote: the caller's own (an administrator sees all)",
    description:
      'Every email (to the assignee after an upload, to the requester when training ends) lands here. With FOLIO_SMTP_URL set it is sent through that server (state sent or failed); otherwise it is kept here (state kept).',
    list: {
      filters: {
        kind: 'upload or training (comma for several)',
        state: 'queued, sent, kept or failed (comma for several)',
        document: 'document id',
        document_id: 'document id (same as document)',
        to: 'recipient email (administrators)',
      },
      ordering: ['id', 'created_at', 'sent_at', 'state', 'kind'],
    },
    response: envelope(OutboxMessage),
    async handler(ctx) {
      const params = ctx.list();
      return ctx.page(await ctx.core.services.events.outbox(ctx.user, params), params, outboxMessageOut);
    },
  }),
  route({
    method: 'get',
    path: '/api/v3/documents/:id/callbacks/',
    tag: 'events',
    summary: "Attempts to deliver the document's completion callback",
    description: 'One entry per POST to the callback_url (spec 6), with the status the receiver answered or the error when none came.',
    list: { filters: { status_code: 'HTTP status answered (null: no answer)' }, ordering: ['id', 'created_at', 'attempt'] },
    response: envelope(CallbackAttempt),
    async handler(ctx) {
      const params = ctx.list();
      return ctx.page(await ctx.core.services.events.callbackAttempts(ctx.user, ctx.id(), params), params, callbackAttemptOut);
    },
  }),
];
