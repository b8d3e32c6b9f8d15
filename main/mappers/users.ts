// Accounts as the API shows them (spec 5). Why mappers live in main/mappers: dto.ts.
import type { z } from 'zod';
import type { User } from '../../shared/schemas/accounts.ts';
import type { UserRow } from '../store/schema.ts';
import { isoOut } from './dto.ts';

export const userOut = (u: UserRow): z.infer<typeof User> => ({
  id: u.id,
  username: u.email,
  email: u.email,
  name: u.name,
  is_admin: u.is_admin,
  created_at: isoOut(u.created_at),
});
