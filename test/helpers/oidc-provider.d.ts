// The part of oidc-provider v9 (which ships no types) that test/helpers/oidcProvider.ts uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface Account {
    accountId: string;
    claims(use: string, scope: string): Promise<Record<string, unknown> & { sub: string }>;
  }

  export interface Configuration {
    clients?: Record<string, unknown>[];
    scopes?: string[];
    claims?: Record<string, string[]>;
    findAccount?(ctx: unknown, id: string): Promise<Account | undefined>;
    pkce?: { required?: () => boolean };
    features?: Record<string, { enabled: boolean }>;
    cookies?: { keys?: string[] };
    ttl?: Record<string, number>;
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
