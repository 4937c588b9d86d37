import { promisify } from 'node:util';
import { crc32, deflateRaw } from 'node:zlib';

export type ZipEntry = {
  /** Path inside the archive, with forward slashes ('icons/16.png'). */
  name: string;
  data: Buffer;
  modified: Date;
};

const deflate = promisify(deflateRaw);

/** ZIP without ZIP64: every size and offset must fit in 32 bits, the entry count in 16. */
const MAX_BYTES = 0xffff_ffff;
const MAX_ENTRIES = 0xffff;
/** General purpose flag 11: names are UTF-8. */
const UTF8_NAMES = 0x0800;
/** Version 2.0 (deflate), made on Unix, so the external attributes below are Unix modes. */
const VERSION_NEEDED = 20;
const VERSION_MADE_BY = (3 << 8) | 20;
/** A regular file, rw-r--r--. */
const FILE_MODE = (0o100644 << 16) >>> 0;

/** MS-DOS date and time, the only timestamp every unzip tool reads (local time, two-second steps, from 1980). */
function dosDateTime(when: Date) {
  const d = when.getFullYear() < 1980 ? new Date(1980, 0, 1) : when;
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
    date: ((d.getFullYear() - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

/**
 * A ZIP archive of `entries`, each deflated (or stored when deflating does not make it smaller). Compression runs on
 * libuv's thread pool, so building an archive does not hold up other requests.
 */
export async function createZip(entries: ZipEntry[]): Promise<Buffer> {
  if (entries.length > MAX_ENTRIES) throw new RangeError(`a zip holds at most ${MAX_ENTRIES} entries`);
  const local: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const crc = crc32(entry.data);
    const deflated = await deflate(entry.data, { level: 9 });
    const stored = deflated.length >= entry.data.length;
    const body = stored ? entry.data : deflated;
    const method = stored ? 0 : 8;
    const { time, date } = dosDateTime(entry.modified);

    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(VERSION_NEEDED, 4);
    header.writeUInt16LE(UTF8_NAMES, 6);
    header.writeUInt16LE(method, 8);
    header.writeUInt16LE(time, 10);
    header.writeUInt16LE(date, 12);
    header.writeUInt32LE(crc, 14);
    header.writeUInt32LE(body.length, 18);
    header.writeUInt32LE(entry.data.length, 22);
    header.writeUInt16LE(name.length, 26);
    header.writeUInt16LE(0, 28);

    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(VERSION_MADE_BY, 4);
    record.writeUInt16LE(VERSION_NEEDED, 6);
    record.writeUInt16LE(UTF8_NAMES, 8);
    record.writeUInt16LE(method, 10);
    record.writeUInt16LE(time, 12);
    record.writeUInt16LE(date, 14);
    record.writeUInt32LE(crc, 16);
    record.writeUInt32LE(body.length, 20);
    record.writeUInt32LE(entry.data.length, 24);
    record.writeUInt16LE(name.length, 28);
    // extra field, comment, disk number and internal attributes stay 0
    record.writeUInt32LE(FILE_MODE, 38);
    record.writeUInt32LE(offset, 42);

    local.push(header, name, body);
    central.push(record, name);
    offset += header.length + name.length + body.length;
    if (offset > MAX_BYTES) throw new RangeError('a zip without ZIP64 holds at most 4 GiB');
  }
  const centralSize = central.reduce((sum, part) => sum + part.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...local, ...central, end]);
}
