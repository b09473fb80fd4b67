package io.tandem.world;

import java.util.List;
import java.util.Optional;

/**
 * A loaded world: what an SDF file describes, resolved to world-frame initial poses (SI units,
 * z up). The immutable model the world runner, the level manager and the distribution build on.
 * Lists keep the file's order; model names are unique. Built by {@link SdfLoader}.
 *
 * @param name            the world's name
 * @param source          where it came from (a file path), for messages
 * @param gravityX        gravity x, m/s^2
 * @param gravityY        gravity y, m/s^2
 * @param gravityZ        gravity z, m/s^2
 * @param stepSizeNs      physics step (SDF max_step_size), ns
 * @param realTimeFactor  SDF real_time_factor (0: as fast as possible)
 * @param models          top-level models with their (flattened nested) links and joints
 * @param performers      performers of the gz::sim plugin
 * @param levels          levels of the gz::sim plugin
 * @param levelPlugin     whether the world has the gz::sim (or ignition::gazebo) plugin
 */
public record World(String name, String source, double gravityX, double gravityY, double gravityZ, long stepSizeNs,
                    double realTimeFactor, List<Model> models, List<Performer> performers, List<Level> levels,
                    boolean levelPlugin) {

    public World {
        models = List.copyOf(models);
        performers = List.copyOf(performers);
        levels = List.copyOf(levels);
    }

    /** @return the model of that name, if any */
    public Optional<Model> model(String modelName) {
        for (Model m : models) {
            if (m.name().equals(modelName)) {
                return Optional.of(m);
            }
        }
        return Optional.empty();
    }

    /**
     * A top-level model. Nested models are flattened into it: their links and joints carry scoped
     * names ({@code outer::inner::link}).
     *
     * @param name     unique among the world's models
     * @param isStatic SDF static: its links never move
     * @param pose     the model frame in the world
     * @param links    links, file order
     * @param joints   joints, file order
     * @param line     line of the model element in the source
     */
    public record Model(String name, boolean isStatic, Pose pose, List<Link> links, List<Joint> joints, int line) {
        public Model {
            links = List.copyOf(links);
            joints = List.copyOf(joints);
        }
    }

    /**
     * A link: a rigid body.
     *
     * @param name       scoped name within its model (link, or nested::link)
     * @param pose       the link frame in the world, initially
     * @param inertial   mass properties (SDF defaults where the file gives none)
     * @param collisions collision shapes
     * @param visuals    visual shapes
     * @param line       line in the source
     */
    public record Link(String name, Pose pose, Inertial inertial, List<Collision> collisions, List<Visual> visuals, int line) {
        public Link {
            collisions = List.copyOf(collisions);
            visuals = List.copyOf(visuals);
        }
    }

    /**
     * Mass properties of a link, as SDF gives them: the inertia tensor about the centre of mass in
     * the inertial frame.
     *
     * @param mass kg, greater than 0
     * @param pose the inertial frame (centre of mass) in the link frame
     */
    public record Inertial(double mass, Pose pose, double ixx, double ixy, double ixz, double iyy, double iyz, double izz) {
    }

    /**
     * @param name     the collision's name
     * @param pose     its frame in the link frame
     * @param geometry its shape
     * @param friction Coulomb coefficient (SDF surface/friction/ode/mu, default 1)
     */
    public record Collision(String name, Pose pose, Geometry geometry, double friction) {
    }

    /**
     * @param name     the visual's name
     * @param pose     its frame in the link frame
     * @param geometry its shape
     * @param rgba     diffuse colour, 4 components in [0, 1]
     */
    public record Visual(String name, Pose pose, Geometry geometry, double[] rgba) {
    }

    /** Joint kinds of SDF that Tandem simulates. */
    public enum JointKind { REVOLUTE, CONTINUOUS, PRISMATIC, BALL, FIXED }

    /**
     * A joint between two links of one model, or a link and the world.
     *
     * @param name    scoped name within its model
     * @param kind    the joint's kind
     * @param parent  scoped name of the parent link, or "world"
     * @param child   scoped name of the child link
     * @param pose    the joint frame in the world, initially (its origin is the anchor)
     * @param axisX   unit axis in the world, initially (revolute, continuous, prismatic)
     * @param lower   lower limit (rad or m), -infinity if none
     * @param upper   upper limit, +infinity if none
     * @param damping viscous damping, N m s/rad or N s/m
     * @param line    line in the source
     */
    public record Joint(String name, JointKind kind, String parent, String child, Pose pose,
                        double axisX, double axisY, double axisZ, double lower, double upper, double damping, int line) {
    }

    /**
     * A performer: a model whose box decides which levels load.
     *
     * @param name  the performer's name
     * @param ref   the top-level model it follows
     * @param sizeX box side lengths, m
     * @param line  line in the source
     */
    public record Performer(String name, String ref, double sizeX, double sizeY, double sizeZ, int line) {
    }

    /**
     * A level: a world-aligned box and the entities that belong to it.
     *
     * @param name   the level's name
     * @param x      box centre, world frame, m (the level pose's orientation is ignored, as in Gazebo)
     * @param sizeX  box side lengths, m
     * @param buffer distance beyond the box within which a loaded level stays loaded, m (at least 0)
     * @param refs   names of the entities (models) in the level, file order
     * @param line   line in the source
     */
    public record Level(String name, double x, double y, double z, double sizeX, double sizeY, double sizeZ,
                        double buffer, List<String> refs, int line) {
        public Level {
            refs = List.copyOf(refs);
        }
    }
}
