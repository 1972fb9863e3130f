//! Request slots: at most N model requests in flight to one endpoint, the rest waiting in order.
//!
//! Why here and not in the shells: a local model server (llama.cpp, Ollama, node-llama-cpp) decodes
//! one request at a time. Requests sent beside it queue inside the server, where the client's
//! per-request timeout is already running, so claims processed concurrently turned into timeouts
//! (issue 39 item 6). Holding them in the client instead means a request's timeout starts when it
//! is actually sent. Core has no async runtime (it runs natively under `futures::executor` and in a
//! browser worker), so this is a small single-threaded FIFO semaphore over `Waker`s rather than a
//! runtime's; `LlmClient` is not `Sync` either, so `Cell`/`RefCell` suffice.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

pub(crate) struct Slots {
    free: Cell<usize>,
    /// Waiting requests in arrival order: (ticket, waker of its last poll).
    queue: RefCell<VecDeque<(u64, Waker)>>,
    next_ticket: Cell<u64>,
    /// Most requests seen in flight at once (for tests and diagnostics).
    peak: Cell<usize>,
    limit: usize,
}

impl Slots {
    pub(crate) fn new(limit: usize) -> Slots {
        let limit = limit.max(1);
        Slots { free: Cell::new(limit), queue: RefCell::new(VecDeque::new()), next_ticket: Cell::new(0), peak: Cell::new(0), limit }
    }

    /// Wait for a slot; the slot is given back when the returned permit is dropped.
    pub(crate) fn acquire(&self) -> Acquire<'_> {
        Acquire { slots: self, ticket: None }
    }

    #[cfg(test)]
    pub(crate) fn peak(&self) -> usize {
        self.peak.get()
    }

    fn take(&self) -> Permit<'_> {
        self.free.set(self.free.get() - 1);
        self.peak.set(self.peak.get().max(self.limit - self.free.get()));
        Permit { slots: self }
    }

    fn wake_front(&self) {
        if self.free.get() > 0 {
            if let Some((_, w)) = self.queue.borrow().front() {
                w.wake_by_ref();
            }
        }
    }
}

pub(crate) struct Permit<'a> {
    slots: &'a Slots,
}

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        self.slots.free.set(self.slots.free.get() + 1);
        self.slots.wake_front();
    }
}

pub(crate) struct Acquire<'a> {
    slots: &'a Slots,
    ticket: Option<u64>,
}

impl<'a> Future for Acquire<'a> {
    type Output = Permit<'a>;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Permit<'a>> {
        let slots = self.slots;
        match self.ticket {
            None => {
                // First come, first served: a newcomer never overtakes a waiting request.
                if slots.free.get() > 0 && slots.queue.borrow().is_empty() {
                    return Poll::Ready(slots.take());
                }
                let t = slots.next_ticket.get();
                slots.next_ticket.set(t + 1);
                slots.queue.borrow_mut().push_back((t, cx.waker().clone()));
                self.ticket = Some(t);
                Poll::Pending
            }
            Some(t) => {
                let mut q = slots.queue.borrow_mut();
                if slots.free.get() > 0 && q.front().is_some_and(|(f, _)| *f == t) {
                    q.pop_front();
                    drop(q);
                    self.ticket = None;
                    let permit = slots.take();
                    // Another slot may be free too (several released at once): pass the turn on.
                    slots.wake_front();
                    return Poll::Ready(permit);
                }
                if let Some(entry) = q.iter_mut().find(|(f, _)| *f == t) {
                    entry.1 = cx.waker().clone();
                }
                Poll::Pending
            }
        }
    }
}

impl Drop for Acquire<'_> {
    /// A waiting request that is abandoned (its claim cancelled) leaves the queue, and if it was
    /// next in line the turn passes to the one behind it.
    fn drop(&mut self) {
        if let Some(t) = self.ticket {
            let mut q = self.slots.queue.borrow_mut();
            q.retain(|(f, _)| *f != t);
            drop(q);
            self.slots.wake_front();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures::executor::block_on;
    use futures::future::join_all;

    /// Yield to the executor `n` times (a request "in flight" for a while).
    async fn yield_n(n: usize) {
        for _ in 0..n {
            let mut once = false;
            std::future::poll_fn(|cx| {
                if once {
                    Poll::Ready(())
                } else {
                    once = true;
                    cx.waker().wake_by_ref();
                    Poll::Pending
                }
            })
            .await;
        }
    }

    #[test]
    fn slots_bound_requests_in_flight_and_serve_them_in_arrival_order() {
        for limit in [1, 2, 3] {
            let slots = Slots::new(limit);
            let order = RefCell::new(vec![]);
            let in_flight = Cell::new(0usize);
            let most = Cell::new(0usize);
            block_on(join_all((0..6).map(|i| {
                let (slots, order, in_flight, most) = (&slots, &order, &in_flight, &most);
                async move {
                    let _p = slots.acquire().await;
                    order.borrow_mut().push(i);
                    in_flight.set(in_flight.get() + 1);
                    most.set(most.get().max(in_flight.get()));
                    yield_n(3).await;
                    in_flight.set(in_flight.get() - 1);
                }
            })));
            assert_eq!(most.get(), limit, "limit {limit}");
            assert_eq!(slots.peak(), limit);
            assert_eq!(*order.borrow(), vec![0, 1, 2, 3, 4, 5], "first come, first served");
            assert_eq!(slots.free.get(), limit, "every slot given back");
        }
    }

    #[test]
    fn an_abandoned_waiter_passes_its_turn_on() {
        let slots = Slots::new(1);
        let first = block_on(slots.acquire());
        {
            let mut waiting = Box::pin(slots.acquire());
            let w = futures::task::noop_waker();
            assert!(waiting.as_mut().poll(&mut Context::from_waker(&w)).is_pending());
        }
        drop(first);
        // The dropped waiter left the queue; the next request gets the slot at once.
        let _again = block_on(slots.acquire());
        assert!(slots.queue.borrow().is_empty());
    }
}
