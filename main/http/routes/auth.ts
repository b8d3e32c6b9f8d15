// Authentication endpoints (spec 5, compat.md) and the admin's user management.
import { pageOfList } from '../../../shared/listParams.ts';
import { route, type Caller, type RouteSpec } from '../route.ts';
import { FileKeyResponse, LoginRequest, PasswordChange, PasswordReset, TokenResponse, User, UserCreate, UserPatch } from '../../../shared/schemas/accounts.ts';
import { envelope } from '../../../shared/schemas/common.ts';
import { PermissionError, ValidationError } from '../../domain/errors.ts';
import { userOut } from '../../mappers/users.ts';

const login = (path: string) =>
  route({
    method: 'post',
    path,
    tag: 'auth',
    summary: 'Get the API token of an account (the same token until it is deleted)',
    auth: 'public',
    body: LoginRequest,
    response: TokenResponse,
    status: 200,
    throttled: true,
    async handler({ core, body, clientAddress }) {
      const email = (body.username ?? body.email)!;
      const user = await core.services.auth.login(email, body.password, clientAddress);
      if (!user) throw ValidationError.of('non_field_errors', 'Unable to log in with provided credentials.');
      return { token: await core.services.auth.issueToken(user) };
    },
  });

function requireAdmin(user: Caller) {
  if (!user.is_admin) throw new PermissionError('Only an administrator can manage users.');
}

export const authRoutes: RouteSpec[] = [
  login('/api/v3/auth/'),
  // Older clients of the API family log in here.
  login('/api/token-auth/'),
  route({
    method: 'delete',
    path: '/api/v3/auth/',
    tag: 'auth',
    summary: "Delete the caller's token; the next login makes a new one",
    async handler({ core, user }) {
      await core.services.auth.deleteToken(user);
    },
  }),
  route({
    method: 'post',
    path: '/api/v3/auth/file-key/',
    tag: 'auth',
    summary: 'A key, valid for minutes, to sign the URLs of files (page images, PDFs, exports) with',
    description:
      'A Folio addition. `<img>` and pdf.js cannot send an Authorization header, and a `?token=` in a URL ends up in logs, so the web app ' +
      'signs each file URL with this key: `<path>?fk=<id>&sig=<base64url HMAC-SHA256(key, path)>` (shared/signedFileUrls.ts). ' +
      'A signed URL opens that one file, for GET and HEAD, until `expires_at`; deleting the token voids it.',
    response: FileKeyResponse,
    status: 200,
    handler: ({ core, user }) => core.services.auth.fileKey(user),
  }),
  route({
    method: 'get',
    path: '/api/v3/auth/me/',
    tag: 'auth',
    summary: 'The authenticated user',
    response: User,
    handler: ({ user }) => userOut(user),
  }),
  route({
    method: 'post',
    path: '/api/v3/auth/password/',
    tag: 'auth',
    summary: 'Change your own password (needs the current one); answers your new API token',
    description:
      'A wrong current password is a 400 on current_password (and counts as a failed login: past the limits, 429); a weak new one a 400 on new_password. ' +
      'The old token stops working, with every signed file link made from it: the answer carries the new token, so the session that changed the password goes on, ' +
      'and anyone else holding the old token (or the old password) is signed out. With FOLIO_LOCAL_LOGIN=off passwords do not sign in at all: 403.',
    body: PasswordChange,
    response: TokenResponse,
    status: 200,
    throttled: true,
    async handler({ core, user, body, clientAddress }) {
      const checked = await core.services.auth.login(user.email, body.current_password, clientAddress);
      if (!checked || checked.id !== user.id) throw ValidationError.of('current_password', 'The current password is wrong.');
      await core.services.users.changeOwnPassword(checked, body.new_password);
      return { token: await core.services.auth.issueToken(checked) };
    },
  }),
  route({
    method: 'get',
    path: '/api/v3/users/',
    tag: 'users',
    summary: 'List accounts (administrators only)',
    response: envelope(User),
    async handler(ctx) {
      requireAdmin(ctx.user);
      const params = ctx.list();
      const all = await ctx.core.services.users.list();
      const page = pageOfList(all, params);
      return ctx.page(page, params, userOut);
    },
  }),
  route({
    method: 'post',
    path: '/api/v3/users/',
    tag: 'users',
    summary: 'Create an account (administrators only)',
    body: UserCreate,
    response: User,
    async handler({ core, user, body }) {
      requireAdmin(user);
      return userOut(await core.services.users.create(body.email, body.password, { name: body.name, isAdmin: body.is_admin }));
    },
  }),
  route({
    method: 'patch',
    path: '/api/v3/users/:id/',
    tag: 'users',
    summary: "Change an account's name or role (administrators only)",
    description: 'is_admin false on the last administrator is a 400: make another account an administrator first. An unknown id is a 404.',
    body: UserPatch,
    response: User,
    handler: async ({ core, user, body, id }) => userOut(await core.services.users.update(user, id(), body)),
  }),
  route({
    method: 'post',
    path: '/api/v3/users/:id/password/',
    tag: 'users',
    summary: "Reset another account's password (administrators only); that account's sessions and API token are revoked",
    description:
      "A weak password is a 400 on password; your own account a 400 too (POST /api/v3/auth/password/ takes the current one). The account's API token stops " +
      'working at once (the web app that used it signs out on its next request), with the signed file links made from it and remembered Basic credentials.',
    body: PasswordReset,
    response: User,
    status: 200,
    handler: async ({ core, user, body, id }) => userOut(await core.services.users.resetPassword(user, id(), body.password)),
  }),
  route({
    method: 'delete',
    path: '/api/v3/users/:id/',
    tag: 'users',
    summary: 'Remove an account (administrators only)',
    async handler(ctx) {
      requireAdmin(ctx.user);
      const id = ctx.id();
      if (id === ctx.user.id) throw new PermissionError('You cannot remove your own account.');
      await ctx.core.services.users.removeById(id);
    },
  }),
];
