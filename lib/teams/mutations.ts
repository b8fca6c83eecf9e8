import type { Sql } from '../db/client';

export async function createTeam(tx: Sql, name: string, createdBy: string | null): Promise<{ id: string }> {
  const { rows } = await tx.query<{ id: string }>('insert into teams (name, created_by) values ($1, $2) returning id', [
    name,
    createdBy,
  ]);
  return rows[0] as { id: string };
}

export async function addTeamMember(tx: Sql, teamId: string, accountId: string, role: 'owner' | 'member') {
  await tx.query(
    `insert into team_members (team_id, account_id, role) values ($1, $2, $3)
     on conflict (team_id, account_id) do nothing`,
    [teamId, accountId, role],
  );
}
