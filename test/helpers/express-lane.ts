/** The express lane's counter, read from a listening server's /metrics (codebook_http_express_lane_total). */
import assert from 'node:assert/strict';

export async function expressLaneCount(baseUrl: string): Promise<number> {
  const res = await fetch(`${baseUrl}/metrics`);
  const match = /^codebook_http_express_lane_total (\d+)$/m.exec(await res.text());
  assert.ok(match, 'the lane counter in /metrics');
  return Number(match[1]);
}
