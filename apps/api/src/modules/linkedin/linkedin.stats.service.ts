import { LINKEDIN_METRICS, STATS_IMPORT_DAYS, type LinkedinMetric, type LinkedinStats } from '@parley/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import { DomainError } from '../../lib/errors.js';
import { localDate } from '../../lib/time.js';
import type { LinkedinCaller } from './linkedin.settings.service.js';
import { readStatsExport, UnreadableFile } from './linkedin.stats.import.js';
import * as q from './linkedin.stats.queries.js';

/** The day `days - 1` days before `today` (YYYY-MM-DD). */
const daysBefore = (today: string, days: number) => {
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - days);
  return d.toISOString().slice(0, 10);
};

/**
 * LinkedIn stats (spec §3): readings of the person's own pages (by the extension) or of LinkedIn's analytics export,
 * one value per metric and day, shown as series over time.
 */
export function createLinkedinStats({ db, clock, log }: { db: Db; clock: () => Date; log: FastifyBaseLogger }) {
  return {
    async save(
      caller: LinkedinCaller,
      readings: { metric: LinkedinMetric; value: number; day?: string | undefined }[],
    ) {
      const today = localDate(clock(), caller.user.timezone);
      // A day ahead of the person's today is not a reading of their page.
      if (readings.some((r) => r.day && r.day > today)) throw new DomainError('VALIDATION_FAILED');
      const byKey = new Map(readings.map((r) => [`${r.metric}:${r.day ?? today}`, { ...r, day: r.day ?? today }]));
      const rows = [...byKey.values()];
      await db.transaction((tx) => q.saveReadings(tx, caller.user.id, rows, 'page', clock()));
      return { saved: rows.length };
    },

    async get(caller: LinkedinCaller, days: number): Promise<LinkedinStats> {
      const today = localDate(clock(), caller.user.timezone);
      const [rows, last] = await Promise.all([
        q.readingsSince(db, caller.user.id, daysBefore(today, days - 1)),
        q.latest(db, caller.user.id),
      ]);
      const series = Object.fromEntries(
        LINKEDIN_METRICS.map((m) => [m, [] as LinkedinStats['series'][LinkedinMetric]]),
      );
      for (const r of rows) series[r.metric]?.push({ day: r.day, value: r.value, source: r.source });
      const latest = Object.fromEntries(
        LINKEDIN_METRICS.map((m) => {
          const row = last.find((l) => l.metric === m);
          return [m, row ? { day: row.day, value: row.value } : null];
        }),
      );
      return { series, latest } as LinkedinStats;
    },

    /**
     * Imports an analytics export (CSV or XLSX): what it holds for the last STATS_IMPORT_DAYS days replaces the
     * readings of the same days (LinkedIn's exports cover at most 365 days; older rows of a made-up file are left).
     * `notes` say what the file held that could not be used (new followers without the total to count from).
     */
    async import(caller: LinkedinCaller, bytes: Buffer) {
      let readings, notes;
      try {
        ({ readings, notes } = readStatsExport(bytes));
      } catch (error) {
        // Whatever a hostile file makes the reader stumble on, it is an unreadable file, never a 500.
        if (!(error instanceof UnreadableFile)) log.warn({ err: error }, 'a stats file could not be read');
        throw new DomainError('STATS_FILE_UNREADABLE');
      }
      const today = localDate(clock(), caller.user.timezone);
      const since = daysBefore(today, STATS_IMPORT_DAYS - 1);
      const kept = readings.filter((r) => r.day <= today && r.day >= since);
      if (!kept.length) throw new DomainError('STATS_FILE_UNREADABLE');
      await db.transaction((tx) => q.saveReadings(tx, caller.user.id, kept, 'import', clock()));
      return { imported: kept.length, days: new Set(kept.map((r) => r.day)).size, notes };
    },
  };
}

export type LinkedinStatsService = ReturnType<typeof createLinkedinStats>;
