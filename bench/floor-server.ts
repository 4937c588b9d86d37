// The floor under every authenticated request: a bare Fastify + node-postgres server doing only what the
// authenticated `GET /api/user/profile` must do at the least (one prepared lookup of the hashed token joined to its
// user, JSON out), with no logging, hooks, validation or security headers. bench/profile.ts runs it beside Parley,
// on the same database and token, to say how much of what the stack can do Parley keeps.
//
//   DATABASE_URL=postgres://… PORT=4100 node --import tsx bench/floor-server.ts
import { createHash } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = Fastify({ logger: false });

app.get('/api/user/profile', async (request, reply) => {
  const token = /^Bearer ([A-Za-z0-9_-]{20,200})$/.exec(request.headers.authorization ?? '')?.[1];
  if (!token) return reply.code(401).send({ status: 401, message: 'Unauthenticated' });
  const tokenHash = createHash('sha256').update(token).digest('base64url');
  const { rows } = await pool.query({
    name: 'floor_session_user',
    text: `SELECT u.id, u.email, u.name, u.full_name, u.role, u.timezone, u.language, u.created_at, u.login_count,
                  s.revoked_at, s.expires_at
             FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = $1`,
    values: [tokenHash],
  });
  const row = rows[0];
  if (!row || row.revoked_at || row.expires_at <= new Date())
    return reply.code(401).send({ status: 401, message: 'Unauthenticated' });
  return {
    status: 200,
    message: 'OK',
    data: {
      id: row.id,
      email: row.email,
      name: row.name,
      fullName: row.full_name,
      role: row.role,
      timezone: row.timezone,
      language: row.language,
      joinDate: row.created_at.toISOString(),
      loginCount: row.login_count,
    },
  };
});

await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
const stop = async () => {
  await app.close();
  await pool.end();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
