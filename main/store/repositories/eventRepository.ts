// Events (spec 6): the record of callback deliveries and the email outbox, with their list queries.
import { sql } from 'kysely';
import type { Db } from '../db.ts';
import type { CallbackAttemptRow, NewCallbackAttempt, NewOutboxMessage, OutboxRow, OutboxUpdate } from '../schema.ts';
import type { ListParams, Page } from '../../../shared/listParams.ts';
import { intFilter, runList, type Filter, type ListSpec } from '../listQuery.ts';

/** Exact match on a text column; a comma separates alternatives (`?state=kept,failed`). */
const oneOfFilter = (column: string): Filter => (qb, raw) => {
  const values = raw.split(',').map((v) => v.trim()).filter(Boolean);
  if (!values.length) return qb;
  return values.length === 1 ? qb.where(sql.ref(column), '=', values[0]) : qb.where(sql.ref(column), 'in', values);
};

const outboxSpec: ListSpec = {
  orderable: { id: 'outbox.id', created_at: 'outbox.created_at', sent_at: 'outbox.sent_at', state: 'outbox.state', kind: 'outbox.kind' },
  filters: {
    kind: oneOfFilter('outbox.kind'),
    state: oneOfFilter('outbox.state'),
    document: intFilter('outbox.document_id'),
    document_id: intFilter('outbox.document_id'),
    // The column is `collate nocase`, so this matches emails the way users.email does.
    to: oneOfFilter('outbox.to_address'),
  },
  createdAtColumn: 'outbox.created_at',
  idColumn: 'outbox.id',
  defaultOrder: [{ field: 'id', desc: true }],
};

const callbackSpec: ListSpec = {
  orderable: { id: 'callback_attempts.id', created_at: 'callback_attempts.created_at', attempt: 'callback_attempts.attempt' },
  filters: { status_code: intFilter('callback_attempts.status_code') },
  createdAtColumn: 'callback_attempts.created_at',
  idColumn: 'callback_attempts.id',
  defaultOrder: [{ field: 'id', desc: false }],
};

export class EventRepository {
  constructor(private readonly db: Db) {}

  insertCallbackAttempt(values: NewCallbackAttempt): Promise<CallbackAttemptRow> {
    return this.db.insertInto('callback_attempts').values(values).returningAll().executeTakeFirstOrThrow();
  }

  listCallbackAttempts(documentId: number, params: ListParams): Promise<Page<CallbackAttemptRow>> {
    const base = this.db.selectFrom('callback_attempts').where('callback_attempts.document_id', '=', documentId);
    return runList<CallbackAttemptRow>(base.select('callback_attempts.id'), params, callbackSpec, (qb) => qb.clearSelect().selectAll('callback_attempts'));
  }

  insertMessage(values: NewOutboxMessage): Promise<OutboxRow> {
    return this.db.insertInto('outbox').values(values).returningAll().executeTakeFirstOrThrow();
  }

  updateMessage(id: number, changes: OutboxUpdate): Promise<OutboxRow> {
    return this.db.updateTable('outbox').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  }

  findMessageByDeliveryKey(key: string): Promise<OutboxRow | undefined> {
    return this.db.selectFrom('outbox').selectAll().where('delivery_key', '=', key).executeTakeFirst();
  }

  findMessage(id: number): Promise<OutboxRow | undefined> {
    return this.db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The outbox, newest first by default; `toAddress` narrows it to one recipient's messages. */
  listOutbox(params: ListParams, toAddress?: string): Promise<Page<OutboxRow>> {
    let base = this.db.selectFrom('outbox');
    if (toAddress !== undefined) base = base.where('outbox.to_address', '=', toAddress);
    return runList<OutboxRow>(base.select('outbox.id'), params, outboxSpec, (qb) => qb.clearSelect().selectAll('outbox'));
  }
}
