package io.tandem.cosim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tandem.cosim.rpc.RpcCallEvent;
import io.tandem.cosim.rpc.RpcCallResultEvent;
import io.tandem.cosim.rpc.RpcCallStatus;
import io.tandem.cosim.rpc.RpcClient;
import io.tandem.cosim.rpc.RpcServer;
import io.tandem.cosim.rpc.RpcSpec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** RPC behaviour (SIL Kit ITest_Internals_Rpc). */
public abstract class RpcContract extends ContractBase {

    private static RpcCallResultEvent poll(BlockingQueue<RpcCallResultEvent> q) throws InterruptedException {
        RpcCallResultEvent e = q.poll(WAIT_S, TimeUnit.SECONDS);
        assertThat(e).as("an RPC result within %d s", WAIT_S).isNotNull();
        return e;
    }

    /** A server that answers with the argument plus its name. */
    private void echoServer(String participant, RpcSpec spec) {
        Participant p = connect(participant);
        RpcServer[] self = new RpcServer[1];
        self[0] = p.createRpcServer("srv", spec, call ->
                self[0].submitResult(call, (new String(call.argumentData(), StandardCharsets.UTF_8) + "@" + participant).getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void call_oneClientTwoServers_twoResultsPerCall() throws Exception {
        echoServer("s1", RpcSpec.of("add", "m"));
        echoServer("s2", RpcSpec.of("add", "m"));
        BlockingQueue<RpcCallResultEvent> results = new LinkedBlockingQueue<>();
        RpcClient client = connect("client").createRpcClient("c", RpcSpec.of("add", "m"), results::add);
        for (int i = 0; i < 5; i++) {
            long id = client.call(("x" + i).getBytes(StandardCharsets.UTF_8));
            List<String> got = new ArrayList<>();
            for (int k = 0; k < 2; k++) {
                RpcCallResultEvent r = poll(results);
                assertThat(r.status()).isEqualTo(RpcCallStatus.SUCCESS);
                assertThat(r.callId()).isEqualTo(id);
                got.add(new String(r.data(), StandardCharsets.UTF_8));
            }
            assertThat(got).containsExactlyInAnyOrder("x" + i + "@s1", "x" + i + "@s2");
        }
    }

    @Test
    void call_manyClientsOneServer_eachGetsItsOwnResult() throws Exception {
        echoServer("server", RpcSpec.of("f", "m"));
        List<BlockingQueue<RpcCallResultEvent>> queues = new ArrayList<>();
        List<RpcClient> clients = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            BlockingQueue<RpcCallResultEvent> q = new LinkedBlockingQueue<>();
            queues.add(q);
            clients.add(connect("c" + i).createRpcClient("c", RpcSpec.of("f", ""), q::add));
        }
        for (int i = 0; i < 4; i++) {
            clients.get(i).call(("from" + i).getBytes(StandardCharsets.UTF_8));
        }
        for (int i = 0; i < 4; i++) {
            RpcCallResultEvent r = poll(queues.get(i));
            assertThat(r.status()).isEqualTo(RpcCallStatus.SUCCESS);
            assertThat(new String(r.data(), StandardCharsets.UTF_8)).isEqualTo("from" + i + "@server");
        }
    }

    @Test
    void call_wrongFunctionOrMediaType_serverNotReachable() throws Exception {
        echoServer("server", RpcSpec.of("f", "m"));
        BlockingQueue<RpcCallResultEvent> q = new LinkedBlockingQueue<>();
        Participant client = connect("client");
        client.createRpcClient("wrongName", RpcSpec.of("g", "m"), q::add).call(new byte[1]);
        assertThat(poll(q).status()).isEqualTo(RpcCallStatus.SERVER_NOT_REACHABLE);
        client.createRpcClient("wrongMedia", RpcSpec.of("f", "other"), q::add).call(new byte[1]);
        assertThat(poll(q).status()).isEqualTo(RpcCallStatus.SERVER_NOT_REACHABLE);
        client.createRpcClient("wildcard", RpcSpec.of("f", ""), q::add).call("w".getBytes(StandardCharsets.UTF_8));
        RpcCallResultEvent r = poll(q);
        assertThat(r.status()).isEqualTo(RpcCallStatus.SUCCESS);
        assertThat(new String(r.data(), StandardCharsets.UTF_8)).isEqualTo("w@server");
    }

    @Test
    void call_labelsMismatch_serverNotReachable() throws Exception {
        echoServer("server", new RpcSpec("f", "m", List.of(new MatchingLabel("k", "v", MatchingLabel.Kind.MANDATORY))));
        BlockingQueue<RpcCallResultEvent> q = new LinkedBlockingQueue<>();
        Participant client = connect("client");
        client.createRpcClient("none", RpcSpec.of("f", "m"), q::add).call(new byte[1]);
        assertThat(poll(q).status()).isEqualTo(RpcCallStatus.SERVER_NOT_REACHABLE);
        client.createRpcClient("ok", new RpcSpec("f", "m", List.of(new MatchingLabel("k", "v", MatchingLabel.Kind.OPTIONAL))),
                q::add).call(new byte[1]);
        assertThat(poll(q).status()).isEqualTo(RpcCallStatus.SUCCESS);
    }

    @Test
    void call_serverHandlerThrows_internalServerError() throws Exception {
        connect("server").createRpcServer("srv", RpcSpec.of("f", "m"), call -> {
            throw new IllegalStateException("boom");
        });
        BlockingQueue<RpcCallResultEvent> q = new LinkedBlockingQueue<>();
        connect("client").createRpcClient("c", RpcSpec.of("f", "m"), q::add).call(new byte[1]);
        RpcCallResultEvent r = poll(q);
        assertThat(r.status()).isEqualTo(RpcCallStatus.INTERNAL_SERVER_ERROR);
        assertThat(r.data()).isEmpty();
    }

    @Test
    void callWithTimeout_nonReplyingServerWithoutTimeSync_timeoutForEveryCall() throws Exception {
        connect("server").createRpcServer("srv", RpcSpec.of("f", "m"), call -> { });
        BlockingQueue<RpcCallResultEvent> q = new LinkedBlockingQueue<>();
        RpcClient client = connect("client").createRpcClient("c", RpcSpec.of("f", "m"), q::add);
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            ids.add(client.callWithTimeout(new byte[1], 1_000_000));
        }
        List<Long> timedOut = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            RpcCallResultEvent r = poll(q);
            assertThat(r.status()).isEqualTo(RpcCallStatus.TIMEOUT);
            timedOut.add(r.callId());
        }
        assertThat(timedOut).containsExactlyInAnyOrderElementsOf(ids);
    }

    @Test
    void callWithTimeout_nonReplyingServerWithTimeSync_timesOutInVirtualTime() throws Exception {
        connect("server").createRpcServer("srv", RpcSpec.of("f", "m"), call -> { });
        Participant client = connect("client");
        BlockingQueue<RpcCallResultEvent> q = new LinkedBlockingQueue<>();
        RpcClient c = client.createRpcClient("c", RpcSpec.of("f", "m"), q::add);
        LifecycleService lc = client.createLifecycleService(OperationMode.AUTONOMOUS);
        TimeSyncService ts = lc.createTimeSyncService();
        List<Long> callTimes = new ArrayList<>();
        ts.setSimulationStepHandler((now, d) -> {
            if (now < 5_000_000) {
                c.callWithTimeout(new byte[1], 1_000_000);
                callTimes.add(now);
            }
            if (now == 20_000_000) {
                lc.stop("done");
            }
        }, 1_000_000);
        CompletableFuture<ParticipantState> done = lc.startLifecycle();
        assertThat(await(done)).isEqualTo(ParticipantState.SHUTDOWN);
        List<Long> timeoutTimes = new ArrayList<>();
        RpcCallResultEvent r;
        while ((r = q.poll()) != null) {
            assertThat(r.status()).isEqualTo(RpcCallStatus.TIMEOUT);
            timeoutTimes.add(r.timestampNs());
        }
        assertThat(callTimes).hasSize(5);
        // a call made in the step at t times out at the tick of the step at t + 1 ms
        assertThat(timeoutTimes).containsExactly(1_000_000L, 2_000_000L, 3_000_000L, 4_000_000L, 5_000_000L);
    }

    @Test
    void callWithTimeout_replyingServer_noTimeouts() throws Exception {
        echoServer("server", RpcSpec.of("f", "m"));
        BlockingQueue<RpcCallResultEvent> q = new LinkedBlockingQueue<>();
        RpcClient client = connect("client").createRpcClient("c", RpcSpec.of("f", "m"), q::add);
        for (int i = 0; i < 20; i++) {
            client.callWithTimeout(new byte[1], 10_000_000_000L);
            assertThat(poll(q).status()).isEqualTo(RpcCallStatus.SUCCESS);
        }
    }

    @Test
    void call_serverInSameParticipant_selfDelivered() throws Exception {
        Participant p = connect("both");
        RpcServer[] srv = new RpcServer[1];
        srv[0] = p.createRpcServer("srv", RpcSpec.of("f", "m"), call -> srv[0].submitResult(call, "self".getBytes(StandardCharsets.UTF_8)));
        BlockingQueue<RpcCallResultEvent> q = new LinkedBlockingQueue<>();
        p.createRpcClient("c", RpcSpec.of("f", "m"), q::add).call(new byte[1]);
        RpcCallResultEvent r = poll(q);
        assertThat(r.status()).isEqualTo(RpcCallStatus.SUCCESS);
        assertThat(new String(r.data(), StandardCharsets.UTF_8)).isEqualTo("self");
    }

    @Test
    void submitResult_fromAnotherThreadLater_delivered() throws Exception {
        BlockingQueue<RpcCallEvent> calls = new LinkedBlockingQueue<>();
        RpcServer srv = connect("server").createRpcServer("srv", RpcSpec.of("f", "m"), calls::add);
        BlockingQueue<RpcCallResultEvent> q = new LinkedBlockingQueue<>();
        connect("client").createRpcClient("c", RpcSpec.of("f", "m"), q::add).call("a".getBytes(StandardCharsets.UTF_8));
        RpcCallEvent call = calls.poll(WAIT_S, TimeUnit.SECONDS);
        assertThat(call).isNotNull();
        srv.submitResult(call, "late".getBytes(StandardCharsets.UTF_8));
        srv.submitResult(call, "twice".getBytes(StandardCharsets.UTF_8));
        assertThat(new String(poll(q).data(), StandardCharsets.UTF_8)).isEqualTo("late");
        assertThat(q.poll(50, TimeUnit.MILLISECONDS)).as("a second answer to one call is ignored").isNull();
    }

    @Test
    void callWithTimeout_nonPositiveTimeout_throws() {
        RpcClient c = connect("client").createRpcClient("c", RpcSpec.of("f", "m"), r -> { });
        assertThatThrownBy(() -> c.callWithTimeout(new byte[1], 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("timeout");
    }
}
