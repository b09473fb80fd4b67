package io.tandem.cle;

import io.tandem.cle.device.DeviceBinder;

/** {@link TransferFunction#of}: a kind, a name, a priority and a binding lambda. */
final class LambdaTransferFunction implements TransferFunction {
    private final TransferFunctionKind kind;
    private final String name;
    private final int priority;
    private final Binding binding;
    private Body body;

    LambdaTransferFunction(TransferFunctionKind kind, String name, int priority, Binding binding) {
        if (kind == null || name == null || binding == null) {
            throw new IllegalArgumentException("a transfer function needs a kind, a name and a binding");
        }
        this.kind = kind;
        this.name = name;
        this.priority = priority;
        this.binding = binding;
    }

    @Override
    public TransferFunctionKind kind() {
        return kind;
    }

    @Override
    public int priority() {
        return priority;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void bind(DeviceBinder devices) {
        body = binding.bind(devices);
        if (body == null) {
            throw new IllegalArgumentException("transfer function '" + name + "': its binding returned no body");
        }
    }

    @Override
    public void run(long timeNs, long iteration) {
        body.run(timeNs, iteration);
    }
}
