import { JobsRepository } from '../../server/api/jobs/jobsRepository';
import { JOB_STALE_SECONDS } from '../../server/api/jobs/jobsService';
import { insertManyDevices } from '../helpers/inventoryFixtures';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';

const actor = { adminId: null, email: 'admin@demo.local', ip: null, requestId: null };
const NOTE = { action: 5, title: 'Aviso', message: 'Su cuota vence mañana' } as const;

describe.each(testEngines())('job heartbeat and takeover on %s', (engine) => {
  let t: TestDb;
  let repo: JobsRepository;
  beforeAll(async () => {
    t = await createTestDb(engine);
    repo = new JobsRepository(t.db);
  });
  afterAll(() => t.dispose());

  async function newJob(): Promise<number> {
    const ids = await insertManyDevices(t.db, 3);
    const job = await repo.insert({ action: NOTE.action, payload: NOTE as never, deviceIds: ids, actor });
    return Number(job.id);
  }
  const ageHeartbeat = (id: number, seconds: number) =>
    t.db.query(`UPDATE jobs SET heartbeat_at = clock_timestamp() - make_interval(secs => $2) WHERE id = $1`, [id, seconds]);

  test('the stale window is 10 s: a job beaten 9 s ago stays with its runner, one beaten 11 s ago is taken over', async () => {
    expect(JOB_STALE_SECONDS).toBe(10);
    const id = await newJob();
    expect(Number((await repo.claim('replica-a', JOB_STALE_SECONDS))?.id)).toBe(id);
    await ageHeartbeat(id, 9);
    expect(await repo.claim('replica-b', JOB_STALE_SECONDS)).toBeUndefined();
    await ageHeartbeat(id, 11);
    const taken = await repo.claim('replica-b', JOB_STALE_SECONDS);
    expect(Number(taken?.id)).toBe(id);
    expect(taken?.runner).toBe('replica-b');
    await repo.complete(id);
  });

  test("the timer beat refreshes only the owner's job; a fresh beat keeps another runner away", async () => {
    const id = await newJob();
    await repo.claim('replica-a', JOB_STALE_SECONDS);
    await ageHeartbeat(id, 9);
    expect(await repo.heartbeat(id, 'replica-b')).toBe(false);
    expect(await repo.heartbeat(id, 'replica-a')).toBe(true);
    const age = await t.db.query<{ s: number }>('SELECT extract(epoch FROM clock_timestamp() - heartbeat_at)::float8 AS s FROM jobs WHERE id = $1', [
      id,
    ]);
    expect(age.rows[0]!.s).toBeLessThan(5);
    await ageHeartbeat(id, 9);
    await repo.heartbeat(id, 'replica-a');
    // 9 s + the beat: still fresh when another runner looks.
    expect(await repo.claim('replica-b', JOB_STALE_SECONDS)).toBeUndefined();
    await repo.complete(id);
    expect(await repo.heartbeat(id, 'replica-a')).toBe(false);
  });

  test('a runner claiming again finds the job it left when the database cut its run short (no need to wait for the stale window)', async () => {
    const id = await newJob();
    await repo.claim('replica-a', JOB_STALE_SECONDS);
    expect(await repo.claim('replica-b', JOB_STALE_SECONDS)).toBeUndefined();
    expect(Number((await repo.claim('replica-a', JOB_STALE_SECONDS))?.id)).toBe(id);
    await repo.complete(id);
  });

  if (engine === 'postgres') {
    test('a beat never waits for the batch holding the job row (skipped, not blocked)', async () => {
      const id = await newJob();
      await repo.claim('replica-a', JOB_STALE_SECONDS);
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let locked!: () => void;
      const isLocked = new Promise<void>((r) => (locked = r));
      const batch = t.db.transaction(async (tx) => {
        await new JobsRepository(tx).lockOwned(id, 'replica-a');
        locked();
        await held;
      });
      await isLocked;
      expect(await repo.heartbeat(id, 'replica-a')).toBe(false);
      // Locked by its batch: another runner's claim skips it instead of waiting.
      expect(await repo.claim('replica-b', JOB_STALE_SECONDS)).toBeUndefined();
      release();
      await batch;
      await repo.complete(id);
    });
  }
});
