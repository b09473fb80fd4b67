package io.tandem.world.distributed;

import io.tandem.physics.PhysicsState;
import io.tandem.physics.SolverSettings;
import io.tandem.world.ModelState;
import io.tandem.world.Pose;
import io.tandem.world.World;
import io.tandem.world.internal.PhysicsCompiler;
import io.tandem.world.internal.PoseMath;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The primary's copy of the world's state: every model's body states (13 values per link, as in
 * {@link ModelState}), from the world file at first (the same numbers a
 * standalone run starts from: the whole world is compiled once, bodies at their file poses) and
 * then from the secondaries' acks. Poses come from {@link io.tandem.world.WorldRunner#modelPoseOf}, so they are
 * bitwise the standalone runner's for the same state. Not thread-safe; allocates on updates.
 */
final class DistributedScene {
    private final Map<String, double[]> links = new HashMap<>();
    private final Map<String, Pose[]> bodyInLink = new HashMap<>();
    private final Map<String, Pose> firstLinkInModel = new HashMap<>();
    private final List<String> names;
    /** per world model index: its links' values (the arrays of the map above) */
    private final double[][] byIndex;
    /** the whole world compiled, and a state to evaluate joint coordinates in from the reported bodies */
    private final PhysicsCompiler.Compiled compiled;
    private final PhysicsState jointState;
    /** per model: its links' bodies in {@link #compiled} */
    private final Map<String, int[]> bodies = new HashMap<>();
    private final io.tandem.world.internal.JointTable jointTable;

    DistributedScene(World world) {
        List<String> all = world.models().stream().map(World.Model::name).toList();
        names = all;
        byIndex = new double[all.size()][];
        PhysicsCompiler.Compiled c = PhysicsCompiler.compile(world, all, SolverSettings.subAdmm(1));
        PhysicsState s = c.model().newState();
        compiled = c;
        jointState = c.model().newState();
        jointTable = new io.tandem.world.internal.JointTable(world);
        Map<String, PhysicsCompiler.BodyRef> refs = new HashMap<>();
        for (PhysicsCompiler.BodyRef r : c.bodies()) {
            refs.put(PhysicsCompiler.Compiled.key(r.model(), r.link()), r);
        }
        for (int mi = 0; mi < world.models().size(); mi++) {
            World.Model m = world.models().get(mi);
            double[] v = new double[ModelState.LINK_VALUES * m.links().size()];
            Pose[] bil = new Pose[m.links().size()];
            int[] bs = new int[m.links().size()];
            for (int li = 0; li < m.links().size(); li++) {
                PhysicsCompiler.BodyRef r = refs.get(PhysicsCompiler.Compiled.key(m.name(), m.links().get(li).name()));
                int n = r.body();
                bs[li] = n;
                int o = ModelState.LINK_VALUES * li;
                System.arraycopy(s.pos, 3 * n, v, o, 3);
                System.arraycopy(s.quat, 4 * n, v, o + 3, 4);
                bil[li] = r.bodyInLink();
            }
            bodies.put(m.name(), bs);
            links.put(m.name(), v);
            byIndex[mi] = v;
            bodyInLink.put(m.name(), bil);
            if (!m.links().isEmpty()) {
                firstLinkInModel.put(m.name(), m.pose().inverse().compose(m.links().get(0).pose()));
            }
        }
    }

    /**
     * Takes the states of an ack's block; a model already taken this iteration (another
     * secondary reported it first) is skipped.
     *
     * @param taken per world model index: taken this iteration; updated
     * @throws IllegalArgumentException for an index or a size that does not fit this world
     */
    void apply(int[] models, double[] values, boolean[] taken, String from) {
        int o = 0;
        for (int mi : models) {
            if (mi < 0 || mi >= names.size()) {
                throw new IllegalArgumentException("secondary '" + from + "' reported model index " + mi + ", which this world"
                        + " does not have: every process must load the same world");
            }
            double[] v = byIndex[mi];
            if (o + v.length > values.length) {
                throw new IllegalArgumentException("secondary '" + from + "' reported " + values.length + " state values, too"
                        + " few for its models: every process must load the same world");
            }
            if (!taken[mi]) {
                taken[mi] = true;
                System.arraycopy(values, o, v, 0, v.length);
            }
            o += v.length;
        }
        if (o != values.length) {
            throw new IllegalArgumentException("secondary '" + from + "' reported " + values.length + " state values for "
                    + o + ": every process must load the same world");
        }
    }

    /** @return a model's pose (see {@link io.tandem.world.WorldView#modelPose}), or null for an unknown or link-less model */
    Pose modelPose(String model) {
        Pose first = firstLinkInModel.get(model);
        if (first == null) {
            return null;
        }
        double[] v = links.get(model);
        return PoseMath.modelPose(v, 0, v, 3, bodyInLink.get(model)[0], first);
    }

    /** @return a link's frame (see {@link io.tandem.world.WorldView#linkPose}), or null for an unknown model or link */
    Pose linkPose(String model, int link) {
        Pose[] bil = bodyInLink.get(model);
        if (bil == null || link < 0 || link >= bil.length) {
            return null;
        }
        double[] v = links.get(model);
        int o = ModelState.LINK_VALUES * link;
        return PoseMath.linkPose(v, o, v, o + 3, bil[link]);
    }

    /**
     * @return a joint's coordinate from the reported bodies (see
     *         {@link io.tandem.world.WorldView#jointPosition}): the runner's own function on the same
     *         body states, so bitwise the standalone value; NaN for another kind of joint
     */
    double jointPosition(World.Model model, int joint) {
        int[] bs = bodies.get(model.name());
        if (bs == null || joint < 0 || joint >= model.joints().size()) {
            return Double.NaN;
        }
        Integer dof = compiled.dofs().get(io.tandem.world.internal.PhysicsCompiler.Compiled.key(model.name(),
                model.joints().get(joint).name()));
        int j = dof != null ? -1 : compiled.model().jointIndex(jointTable.handle(model.name() + "::" + model.joints().get(joint).name()));
        if (j < 0 && dof == null) {
            return Double.NaN;
        }
        double[] v = links.get(model.name());
        for (int li = 0; li < bs.length; li++) {
            int o = ModelState.LINK_VALUES * li;
            System.arraycopy(v, o, jointState.pos, 3 * bs[li], 3);
            System.arraycopy(v, o + 3, jointState.quat, 4 * bs[li], 4);
        }
        if (dof != null) {
            // a robot in joint coordinates: the runner's own function of the link poses
            return compiled.model().dofPositionOfPoses(jointState, dof);
        }
        io.tandem.physics.JointType type = compiled.model().jointType(j);
        if (type != io.tandem.physics.JointType.REVOLUTE && type != io.tandem.physics.JointType.PRISMATIC) {
            return Double.NaN;
        }
        return compiled.model().jointPosition(jointState, j);
    }

    /** @return a model's position (m, world frame), for the level manager */
    double[] position(String model) {
        Pose p = modelPose(model);
        return p == null ? null : new double[] {p.x(), p.y(), p.z()};
    }
}
