// Projects (spec 2.1).
import { z } from 'zod';
import { Id, Name, Timestamp } from './common.ts';

export const ProjectCreate = z.object({ name: Name });
export const ProjectPatch = ProjectCreate.partial();

export const Project = z.object({
  id: Id,
  name: z.string(),
  created_by: Id.nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Project = z.infer<typeof Project>;
