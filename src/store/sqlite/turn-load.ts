/**
 * Whether calls come one at a time or several together, told by turns of
 * the event loop: a lone client's next request comes only after the answer
 * to its last one, one per turn; under load every turn reads several
 * requests from the sockets that are ready. (Counting the requests in
 * flight cannot tell: a read on the event loop ends before the next request
 * is even parsed.)
 */
export class TurnLoad {
  /** Calls in this turn, and in the last turn that had any. */
  private current = 0;
  private previous = 0;
  private turnEnds = false;

  /** Counts one call; true when another came in this turn or the last turn with calls had several. */
  note(): boolean {
    if (!this.turnEnds) {
      this.turnEnds = true;
      setImmediate(() => {
        this.previous = this.current;
        this.current = 0;
        this.turnEnds = false;
      });
    }
    this.current++;
    return this.current > 1 || this.previous > 1;
  }
}
