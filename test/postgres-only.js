/**
 * Test files that need PostgreSQL (TEST_DATABASE_URL): they run the built server (or the built outbox
 * worker) as child processes on the same database, kill -9 included, and an in-memory PGlite cannot
 * be shared between processes. The embedded run leaves them out; the PostgreSQL step always runs them.
 */
module.exports = { POSTGRES_ONLY: ['test/mqtt/kill9', 'test/alerts/outbox-kill9', 'test/scale/'] };
