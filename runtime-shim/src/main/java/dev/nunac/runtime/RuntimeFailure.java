package dev.nunac.runtime;

/** A native call failed: the status (nunart.h's nunart_status) and the runtime's message. */
public final class RuntimeFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** nunart_status, in order. */
    public enum Status { OK, ARGUMENT, UNAVAILABLE, TABLE, MISMATCH, STATE, MEMORY, DEVICE, TIMEOUT, VERIFY, UNSUPPORTED }

    private final Status status;

    RuntimeFailure(Status status, String message) {
        super(message);
        this.status = status;
    }

    static Status statusOf(int code) {
        Status[] all = Status.values();
        return code >= 0 && code < all.length ? all[code] : Status.DEVICE;
    }

    public Status status() {
        return status;
    }
}
