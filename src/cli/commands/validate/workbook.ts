// A spreadsheet workbook given where text is expected (`--file catalog.xlsx`): refused by its
// first bytes with what to do, instead of every line of a zip archive reported as an invalid code.
import { UsageError } from '../../errors.js';

// .xlsx, .ods and .numbers are zip archives; .xls (Excel 97-2003) is an OLE2 compound file.
const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

const startsWith = (bytes: Buffer, signature: number[]) => bytes.length >= signature.length && signature.every((b, i) => bytes[i] === b);

/** Throws a usage error naming `name` when `firstChunk` is the start of a workbook, not text. */
export function refuseWorkbook(firstChunk: Buffer | undefined, name: string): void {
  if (firstChunk === undefined || !(startsWith(firstChunk, ZIP) || startsWith(firstChunk, OLE2))) return;
  throw new UsageError(
    `${name} is a spreadsheet workbook (Excel, LibreOffice), not text`,
    'export the sheet as CSV (in Excel: File > Save As > CSV UTF-8) and give that file',
  );
}
