//! A value that tasks wait for: the worker's model, its stream settings.
//! Waiting tasks sleep until the value is set (no polling); free of browser
//! code, so it is tested natively.

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

/// A value that is set, cleared and set again; [`Signal::wait`] resolves
/// once it is set. Clones share the value.
pub struct Signal<T> {
    inner: Rc<RefCell<Inner<T>>>,
}

struct Inner<T> {
    value: Option<T>,
    waiting: Vec<Waker>,
}

impl<T> Clone for Signal<T> {
    fn clone(&self) -> Self {
        Self { inner: self.inner.clone() }
    }
}

impl<T> Default for Signal<T> {
    fn default() -> Self {
        Self { inner: Rc::new(RefCell::new(Inner { value: None, waiting: vec![] })) }
    }
}

impl<T: Clone> Signal<T> {
    /// Sets the value and wakes every waiting task.
    pub fn set(&self, value: T) {
        let waiting = {
            let mut inner = self.inner.borrow_mut();
            inner.value = Some(value);
            std::mem::take(&mut inner.waiting)
        };
        waiting.into_iter().for_each(Waker::wake);
    }

    /// Unsets the value (e.g. while it is loaded again).
    pub fn clear(&self) {
        self.inner.borrow_mut().value = None;
    }

    pub fn get(&self) -> Option<T> {
        self.inner.borrow().value.clone()
    }

    /// The value, once it is set.
    pub fn wait(&self) -> Wait<T> {
        Wait { signal: self.clone() }
    }
}

/// The future of [`Signal::wait`].
pub struct Wait<T> {
    signal: Signal<T>,
}

impl<T: Clone> Future for Wait<T> {
    type Output = T;

    fn poll(self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<T> {
        let mut inner = self.signal.inner.borrow_mut();
        match &inner.value {
            Some(value) => Poll::Ready(value.clone()),
            None => {
                if !inner.waiting.iter().any(|w| w.will_wake(context.waker())) {
                    inner.waiting.push(context.waker().clone());
                }
                Poll::Pending
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    use std::task::Wake;

    struct CountWakes(AtomicUsize);

    impl Wake for CountWakes {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    #[test]
    fn a_waiting_task_is_woken_once_when_the_value_is_set() {
        let signal = Signal::<u32>::default();
        let wakes = Arc::new(CountWakes(AtomicUsize::new(0)));
        let waker = Waker::from(wakes.clone());
        let mut context = Context::from_waker(&waker);
        let mut wait = std::pin::pin!(signal.wait());
        assert_eq!(wait.as_mut().poll(&mut context), Poll::Pending);
        assert_eq!(wait.as_mut().poll(&mut context), Poll::Pending, "polled again: still one waker");
        signal.set(7);
        assert_eq!(wakes.0.load(Ordering::SeqCst), 1);
        assert_eq!(wait.as_mut().poll(&mut context), Poll::Ready(7));
    }

    #[test]
    fn a_cleared_value_is_waited_for_again() {
        let signal = Signal::default();
        signal.set("ready");
        assert_eq!(signal.get(), Some("ready"));
        signal.clear();
        assert_eq!(signal.get(), None);
        let waker = Waker::noop();
        let mut context = Context::from_waker(waker);
        let mut wait = std::pin::pin!(signal.clone().wait());
        assert_eq!(wait.as_mut().poll(&mut context), Poll::Pending);
        signal.set("again");
        assert_eq!(wait.as_mut().poll(&mut context), Poll::Ready("again"));
    }
}
