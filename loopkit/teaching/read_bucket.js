// This workbook's own JavaScript model of the read bucket (chapter 02). It is not DeerFlow's code: it is written
// the way a JavaScript programmer would write it for integer line ranges.
//
// readBucket(args) takes a read_file call's argument object and returns "path:lo-hi", where lo and hi are the
// 200-line buckets of the range's two ends, after sorting them and raising both to at least line 1.
//
// For integer line numbers it agrees with loopkit.read_bucket. For anything else it does what JavaScript does,
// and that is the lesson: Math.min and Math.max convert their arguments to numbers (null becomes 0, "0x200"
// becomes 512, "ten" becomes NaN), a missing key is undefined, and every number is a double.

const BUCKET_SIZE = 200;

function bucketOf(line) {
  return Math.floor((line - 1) / BUCKET_SIZE);
}

function readBucket(args) {
  // Only a missing key takes the default; a null is a value, and Math.min reads it as 0.
  const start = args.start_line === undefined ? 1 : args.start_line;
  const end = args.end_line === undefined ? start : args.end_line;
  const lo = Math.max(1, Math.min(start, end));
  const hi = Math.max(1, start, end);
  return `${args.path}:${bucketOf(lo)}-${bucketOf(hi)}`;
}
