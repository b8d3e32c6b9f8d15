// Authentication, users and project membership.
import { z } from 'zod';
import { Id, Timestamp } from './common.ts';

export const LoginRequest = z
  .object({
    username: z.string().trim().min(1).optional(),
    email: z.string().trim().min(1).optional(),
    password: z.string().min(1, 'This field may not be blank.'),
  })
  .refine((b) => b.username ?? b.email, { message: 'This field is required.', path: ['username'] });

export const TokenResponse = z.object({ token: z.string() });

/** A key to sign file URLs with (shared/signedFileUrls.ts). */
export const FileKeyResponse = z.object({
  id: z.string().describe('`<user id>.<expiry>`: the `fk` parameter of each signed URL'),
  key: z.string().describe('the secret each URL is signed with (HMAC-SHA256 of the path); never put into a URL'),
  expires_at: z.string().describe('when the key and every URL signed with it stop working'),
});

export const User = z.object({
  id: Id,
  username: z.string().describe('the account email'),
  email: z.string(),
  name: z.string(),
  is_admin: z.boolean(),
  created_at: Timestamp,
});

export const UserCreate = z.object({
  email: z.string().trim().email('Enter a valid email address.'),
  password: z.string().min(8, 'The password must have at least 8 characters.'),
  name: z.string().max(255).optional(),
  is_admin: z.boolean().optional(),
});

export const PasswordChange = z.object({
  current_password: z.string({ error: 'This field is required.' }).min(1, 'This field may not be blank.'),
  new_password: z.string({ error: 'This field is required.' }).min(1, 'This field may not be blank.').describe('at least 8 characters, not the email, not one character repeated'),
});

export const PasswordReset = z.object({
  password: z.string({ error: 'This field is required.' }).min(1, 'This field may not be blank.').describe('at least 8 characters, not the email, not one character repeated'),
});

export const UserPatch = z.object({
  name: z.string().max(255).optional(),
  is_admin: z.boolean().optional().describe('the role: true administrator, false user; the last administrator cannot be made a user'),
});

/** Who an owner may add to a project: the accounts that are not members yet. */
export const MemberCandidate = z.object({ id: Id, email: z.string(), name: z.string() });

const ROLE_MESSAGE = 'The role is "owner" or "member".';
export const ProjectRole = z
  .enum(['owner', 'member'], { error: (issue) => (issue.input === undefined ? 'This field is required.' : ROLE_MESSAGE) })
  .describe('owner: also changes the settings and members and deletes the project; member: uploads, reviews, trains, sets up the taxonomy');

export const Member = z.object({
  id: Id.describe('user id'),
  email: z.string(),
  name: z.string(),
  role: ProjectRole,
  created_at: Timestamp,
});

export const MemberAdd = z.object({
  email: z.string().trim().min(1, 'This field may not be blank.'),
  role: ProjectRole.optional().describe('default member'),
});

export const MemberPatch = z.object({ role: ProjectRole });

/** How people sign in here (the login page asks before showing its form). */
export const SignInMethods = z.object({
  password: z.boolean().describe('whether email and password sign in (false with FOLIO_LOCAL_LOGIN=off)'),
  sso: z
    .object({
      name: z.string().describe('the provider, as in "Sign in with <name>"'),
      login_url: z.string().describe('where the browser goes to sign in at the provider'),
    })
    .nullable()
    .describe('single sign-on through an OpenID Connect provider, null when none is set up'),
});
