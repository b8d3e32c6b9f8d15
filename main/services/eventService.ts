// Reading the event records (spec 6): a user's emails in the outbox, and the callback attempts of a
// document they can see. Sending lives in main/events/ (callbacks.ts, mailer.ts).
import type { Repos } from '../store/repositories/index.ts';
import type { CallbackAttemptRow, OutboxRow, UserRow } from '../store/schema.ts';
import type { ListParams, Page } from '../../shared/listParams.ts';
import { documentForMember, isAdministrator } from './access.ts';

export class EventService {
  constructor(private readonly repos: Repos) {}

  /** Messages addressed to the caller; an administrator sees every message. */
  outbox(user: UserRow, params: ListParams): Promise<Page<OutboxRow>> {
    return this.repos.events.listOutbox(params, isAdministrator(user) ? undefined : user.email);
  }

  /** Delivery attempts of a document's completion callback; 404 for a document the caller cannot see. */
  async callbackAttempts(user: UserRow, documentId: number, params: ListParams): Promise<Page<CallbackAttemptRow>> {
    await documentForMember(this.repos, user, documentId);
    return this.repos.events.listCallbackAttempts(documentId, params);
  }
}
