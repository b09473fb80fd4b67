package io.tandem.world.distributed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tandem.physics.ContactWarmStart;
import io.tandem.world.ModelState;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

class DistributedMessagesTest {
    private static ModelState state(String model, int links) {
        double[] v = new double[13 * links];
        for (int i = 0; i < v.length; i++) {
            v[i] = Math.scalb(1.0 + i / 7.0, i - 20);
        }
        v[0] = -0.0;
        v[1] = Double.MIN_VALUE;
        return new ModelState(model, v, new double[] {1.5, -2.25}, new double[] {-3.5, 12, 0, 0},
                List.of(new ContactWarmStart(3, 0, 7, 1, 5, -0.0, 1e-300, 2.5)));
    }

    @Test
    void step_roundTrip_bitwiseEqual() {
        DistributedMessages.Step s = new DistributedMessages.Step(42, 42_000_000, 1_000_000, true, true, List.of("s1", "s2"),
                List.of(new Affinities.Change("perf_ä", null, "s1"), new Affinities.Change("p2", "s1", "s2")),
                List.of("p3"), List.of(new DistributedMessages.Handover("p2", List.of("level1"),
                        List.of(state("vehicle", 4), state("ball", 1)))), List.of("crate_2"));
        DistributedMessages.Step back = (DistributedMessages.Step) DistributedMessages.decode(DistributedMessages.encode(s));
        assertThat(back.iteration()).isEqualTo(42);
        assertThat(back.simTimeNs()).isEqualTo(42_000_000);
        assertThat(back.paused()).isTrue();
        assertThat(back.allStates()).isTrue();
        assertThat(back.secondaries()).containsExactly("s1", "s2");
        assertThat(back.affinity()).isEqualTo(s.affinity());
        assertThat(back.release()).containsExactly("p3");
        assertThat(back.runtimePerformers()).containsExactly("crate_2");
        assertThat(back.handovers().get(0).levels()).containsExactly("level1");
        for (int i = 0; i < 2; i++) {
            ModelState sent = s.handovers().get(0).models().get(i);
            ModelState got = back.handovers().get(0).models().get(i);
            assertThat(got.model()).isEqualTo(sent.model());
            // bitwise: -0.0 and subnormals survive
            assertThat(Arrays.equals(got.links(), sent.links())).isTrue();
            assertThat(Double.doubleToRawLongBits(got.links()[0])).isEqualTo(Double.doubleToRawLongBits(-0.0));
            assertThat(got.jointImpulses()).containsExactly(1.5, -2.25);
            assertThat(got.motors()).containsExactly(-3.5, 12, 0, 0);
            assertThat(got.contacts()).isEqualTo(sent.contacts());
        }
    }

    @Test
    void encode_stop_exactBytes() {
        // "TWD" 7, kind 4, iteration, failed, reason
        assertThat(HexFormat.of().formatHex(DistributedMessages.encode(new DistributedMessages.Stop(9, true, "x"))))
                .isEqualTo("545744" + "07" + "04" + "0900000000000000" + "01" + "01000000" + "78");
    }

    @Test
    void encode_everyKind_sameBytesAsProtocolVersion7Always() throws Exception {
        // the digest of every kind as version 7 writes them (version 6 added the joint-coordinate
        // states of robots to ModelState, version 7 robot commands: twists and joint targets, in
        // controls and steps); a change here changes the wire format
        List<ContactWarmStart> contacts = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            contacts.add(new ContactWarmStart(i, i % 3, i + 1, 0, i % 4, 0.5 * i, -1.0 / (i + 1), 1e-9 * i));
        }
        ModelState pile = new ModelState("pile", new double[13], new double[] {Double.NaN}, new double[] {1, 2}, contacts);
        double[] dofs = new double[2 * ModelState.DOF_VALUES];
        for (int i = 0; i < dofs.length; i++) {
            dofs[i] = 0.1 * i - 1;
        }
        ModelState arm = new ModelState("arm", new double[26], new double[0], new double[0], List.of(), dofs);
        List<DistributedMessages.Message> all = List.of(
                new DistributedMessages.Hello("secondary-1", "relay", "d1g3st"),
                new DistributedMessages.Step(42, 42_000_000, 1_000_000, true, false, List.of("s1", "s2"),
                        List.of(new Affinities.Change("perf_ä", null, "s1"), new Affinities.Change("p2", "s1", "s2")),
                        List.of("p3"), List.of(new DistributedMessages.Handover("p2", List.of("level1"),
                                List.of(state("vehicle", 4), state("ball", 1)))), List.of("crate_2")),
                new DistributedMessages.Ack("s2", 7, 123, new int[] {4, 9, -1}, state("box", 2).links(),
                        List.of(new DistributedMessages.Handover("p", List.of("l", "m"), List.of(pile, arm)))),
                new DistributedMessages.Stop(Long.MAX_VALUE, false, "finished after 3000 iterations"),
                new DistributedMessages.Refuse("s3", "loaded world 'other'"),
                new DistributedMessages.Control(DistributedMessages.Command.SET_PERFORMER, 0, "crate_9"),
                new DistributedMessages.Control(DistributedMessages.Command.STEP, 5),
                new DistributedMessages.Control(DistributedMessages.Command.TWIST, 0, "vehicle_blue", 2.0, -0.4),
                new DistributedMessages.Step(7, 7_000_000, 1_000_000, false, true, List.of("s1"), List.of(), List.of(), List.of(),
                        List.of(), List.of(new DistributedMessages.Control(DistributedMessages.Command.JOINT_TARGET, 0, "arm::elbow",
                        0.5, 0.0))));
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        for (DistributedMessages.Message m : all) {
            sha.update(DistributedMessages.encode(m));
        }
        assertThat(HexFormat.of().formatHex(sha.digest()))
                .isEqualTo("8279522b6a3d0cf87cf2e481cb4868abd7abf59e7ebd678b2b1db7f15dd4d76e");
    }

    @Test
    void ack_handoverWithManyContacts_roundTripEqual() {
        // a pile handed over: far more contact bytes than the writer's buffer holds at first
        List<ContactWarmStart> contacts = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            contacts.add(new ContactWarmStart(i, i % 3, i + 1, 0, i % 4, 0.5 * i, -1.0 / (i + 1), 1e-9 * i));
        }
        ModelState pile = new ModelState("pile", new double[13], new double[0],
                new double[0], contacts);
        DistributedMessages.Ack a = new DistributedMessages.Ack("s1", 3, 10, new int[0], new double[0],
                List.of(new DistributedMessages.Handover("p", List.of("l"), List.of(pile))));
        DistributedMessages.Ack back = (DistributedMessages.Ack) DistributedMessages.decode(DistributedMessages.encode(a));
        assertThat(back.released().get(0).models().get(0).contacts()).isEqualTo(contacts);
    }

    @Test
    void ack_roundTrip_namesSecondaryAndIteration() {
        DistributedMessages.Ack a = new DistributedMessages.Ack("s2", 7, 123, new int[] {4, 9}, state("box", 2).links(), List.of());
        DistributedMessages.Ack back = (DistributedMessages.Ack) DistributedMessages.decode(DistributedMessages.encode(a));
        assertThat(back.secondary()).isEqualTo("s2");
        assertThat(back.iteration()).isEqualTo(7);
        assertThat(back.stepNs()).isEqualTo(123);
        assertThat(back.models()).containsExactly(4, 9);
        assertThat(Arrays.equals(back.values(), a.values())).isTrue();
    }

    @Test
    void decode_badFrames_refusedWithReason() {
        byte[] ack = DistributedMessages.encode(new DistributedMessages.Ack("s1", 1, 5, new int[] {0}, state("b", 1).links(), List.of()));
        byte[] other = ack.clone();
        other[3] = 9;
        assertThatThrownBy(() -> DistributedMessages.decode(other)).hasMessageContaining("version 9")
                .hasMessageContaining("version " + DistributedMessages.VERSION);
        byte[] kind = ack.clone();
        kind[4] = 99;
        assertThatThrownBy(() -> DistributedMessages.decode(kind)).hasMessageContaining("unknown distributed-world message kind");
        assertThatThrownBy(() -> DistributedMessages.decode(Arrays.copyOf(ack, ack.length - 3))).hasMessageContaining("truncated");
        assertThatThrownBy(() -> DistributedMessages.decode(Arrays.copyOf(ack, ack.length + 2))).hasMessageContaining("unexpected bytes");
        assertThatThrownBy(() -> DistributedMessages.decode(new byte[] {1, 2, 3})).hasMessageContaining("not a Tandem");
        assertThatThrownBy(() -> new ModelState("m", new double[5], new double[0], new double[0], List.of()))
                .hasMessageContaining("13");
        assertThatThrownBy(() -> new ModelState("m", new double[13], new double[0], new double[3], List.of()))
                .hasMessageContaining("2 motor values per joint");
        assertThatThrownBy(() -> new ModelState("m", new double[13], new double[0], new double[0], List.of(), new double[3]))
                .hasMessageContaining("11 values per joint-coordinate joint");
    }

    @Test
    void handover_robotInJointCoordinates_carriesItsJointStates() {
        double[] dofs = new double[3 * ModelState.DOF_VALUES];
        for (int i = 0; i < dofs.length; i++) {
            dofs[i] = Math.sin(i);
        }
        ModelState arm = new ModelState("arm", new double[39], new double[0], new double[0], List.of(), dofs);
        DistributedMessages.Ack a = new DistributedMessages.Ack("s1", 3, 10, new int[0], new double[0],
                List.of(new DistributedMessages.Handover("p", List.of("l"), List.of(arm))));
        DistributedMessages.Ack back = (DistributedMessages.Ack) DistributedMessages.decode(DistributedMessages.encode(a));
        assertThat(back.released().get(0).models().get(0).dofs()).containsExactly(dofs);
    }

    @Test
    void otherMessages_roundTrip_equal() {
        List<DistributedMessages.Message> all = List.of(new DistributedMessages.Hello("s1", "w", "00ff"),
                new DistributedMessages.Stop(9, true, "secondary 's2' was lost"), new DistributedMessages.Refuse("s3", "late"),
                new DistributedMessages.Control(DistributedMessages.Command.STEP, 5),
                new DistributedMessages.Control(DistributedMessages.Command.SET_PERFORMER, 0, "crate_2"),
                new DistributedMessages.Control(DistributedMessages.Command.TWIST, 0, "vehicle_blue", 2.0, -0.4),
                new DistributedMessages.Control(DistributedMessages.Command.JOINT_TARGET, 0, "arm::elbow", -1.25, 0.5));
        for (DistributedMessages.Message m : all) {
            assertThat(DistributedMessages.decode(DistributedMessages.encode(m))).isEqualTo(m);
        }
        DistributedMessages.Step step = new DistributedMessages.Step(3, 3, 1, false, false, List.of("s1"), List.of(), List.of(),
                List.of(), List.of(), List.of(new DistributedMessages.Control(DistributedMessages.Command.TWIST, 0, "v", 1, 2)));
        assertThat(((DistributedMessages.Step) DistributedMessages.decode(DistributedMessages.encode(step))).robotCommands())
                .isEqualTo(step.robotCommands());
    }

    @Test
    void encodeControl_twistAndJointTarget_parsedOrRefusedWithTheUsage() {
        DistributedMessages.Control t = (DistributedMessages.Control) DistributedMessages.decode(
                DistributedPrimary.encodeControl("twist", "vehicle_blue 1.5 -0.25"));
        assertThat(t).isEqualTo(new DistributedMessages.Control(DistributedMessages.Command.TWIST, 0, "vehicle_blue", 1.5, -0.25));
        DistributedMessages.Control j = (DistributedMessages.Control) DistributedMessages.decode(
                DistributedPrimary.encodeControl("joint-target", "arm::elbow 0.5"));
        assertThat(j).isEqualTo(new DistributedMessages.Control(DistributedMessages.Command.JOINT_TARGET, 0, "arm::elbow", 0.5, 0));
        assertThatThrownBy(() -> DistributedPrimary.encodeControl("twist", "v fast 0")).hasMessageContaining("'fast' is not a number");
        assertThatThrownBy(() -> DistributedPrimary.encodeControl("joint-target", null)).hasMessageContaining("usage: joint-target");
        assertThatThrownBy(() -> DistributedPrimary.encodeControl("wiggle", null)).hasMessageContaining("twist MODEL");
    }
}
