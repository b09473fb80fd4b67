package io.tandem.world;

import java.util.List;
import java.util.Optional;

/**
 * A loaded world: what an SDF file describes, resolved to world-frame initial poses (SI units,
 * z up). The immutable model the world runner, the level manager and the distribution build on.
 * Lists keep the file's order; model names are unique. Built by {@link io.tandem.world.sdf.SdfLoader}.
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
 * @param cables          Tandem's cables ({@code <tandem:cable>}), file order
 * @param deformables     Tandem's deformable bodies ({@code <tandem:deformable>}), file order
 */
public record World(String name, String source, double gravityX, double gravityY, double gravityZ, long stepSizeNs,
                    double realTimeFactor, List<Model> models, List<Performer> performers, List<Level> levels,
                    boolean levelPlugin, List<Cable> cables, List<Deformable> deformables) {

    public World {
        models = List.copyOf(models);
        performers = List.copyOf(performers);
        levels = List.copyOf(levels);
        cables = List.copyOf(cables);
        deformables = List.copyOf(deformables);
    }

    /** A world of rigid models only (no cables or deformable bodies). */
    public World(String name, String source, double gravityX, double gravityY, double gravityZ, long stepSizeNs,
                 double realTimeFactor, List<Model> models, List<Performer> performers, List<Level> levels,
                 boolean levelPlugin) {
        this(name, source, gravityX, gravityY, gravityZ, stepSizeNs, realTimeFactor, models, performers, levels, levelPlugin,
                List.of(), List.of());
    }

    /** @return this world with these cables and deformable bodies */
    public World withBodies(List<Cable> newCables, List<Deformable> newDeformables) {
        return new World(name, source, gravityX, gravityY, gravityZ, stepSizeNs, realTimeFactor, models, performers, levels,
                levelPlugin, newCables, newDeformables);
    }

    /**
     * An elastic material.
     *
     * @param youngsModulus E, Pa, &gt; 0
     * @param poissonRatio  nu, in (-1, 0.5)
     * @param density       kg/m^3, &gt; 0
     */
    public record Material(double youngsModulus, double poissonRatio, double density) {
    }

    /**
     * Where a cable's end or a deformable body's nodes are welded: a link of a model, or the world
     * ({@code model} null).
     *
     * @param model the model's name, or null for the world
     * @param link  the link's name (null for the world)
     */
    public record Anchor(String model, String link) {
        /** the world */
        public static final Anchor WORLD = new Anchor(null, null);

        /** @return whether this is the world */
        public boolean isWorld() {
            return model == null;
        }
    }

    /**
     * A cable (Tandem's SDF extension {@code <tandem:cable>}): a straight run of rigid capsule
     * segments with Cosserat stretch, shear, bend and twist springs from its material.
     *
     * @param name                 unique among the world's cables and deformable bodies
     * @param fromX                start point, world frame, m
     * @param toX                  end point, world frame, m
     * @param segments             at least 1
     * @param diameter             m
     * @param material             E, nu, density
     * @param segmentsPerSubsystem segments per SubADMM subsystem
     * @param start                what its start is welded to (6 hard rows at the start point), or null for free
     * @param end                  what its end is welded to, or null for free
     * @param line                 line in the source
     */
    public record Cable(String name, double fromX, double fromY, double fromZ, double toX, double toY, double toZ,
                        int segments, double diameter, Material material, int segmentsPerSubsystem, Anchor start, Anchor end,
                        int line) {
        /** Tandem's SDF extension element in a world declaring a cable */
        public static final String ELEMENT = "tandem:cable";
    }

    /**
     * A deformable body (Tandem's SDF extension {@code <tandem:deformable>}): a co-rotational
     * linear tetrahedral FEM mesh, a meshed box or a mesh file, split into blocks.
     *
     * @param name       unique among the world's cables and deformable bodies
     * @param pose       the mesh frame in the world
     * @param sizeX      a box's side lengths, m (0 when {@code meshFile} is given); the box is centred on the frame
     * @param cellsX     a box's cells per axis (6 tetrahedra each)
     * @param meshFile   a Gmsh .msh or TetGen .node file, or null for the box
     * @param material   E, nu, density
     * @param rayleighAlpha mass-proportional damping, 1/s
     * @param rayleighBeta  stiffness-proportional damping, s
     * @param blocks     blocks (subsystems) along the mesh's longest axis
     * @param nodeRadius surface nodes' contact spheres, m
     * @param welds      node welds: the nodes inside each box (world frame, at the start) welded to its anchor
     * @param line       line in the source
     */
    public record Deformable(String name, Pose pose, double sizeX, double sizeY, double sizeZ, int cellsX, int cellsY, int cellsZ,
                             java.nio.file.Path meshFile, Material material, double rayleighAlpha, double rayleighBeta, int blocks,
                             double nodeRadius, List<NodeWeld> welds, int line) {
        /** Tandem's SDF extension element in a world declaring a deformable body */
        public static final String ELEMENT = "tandem:deformable";

        public Deformable {
            welds = List.copyOf(welds);
        }
    }

    /**
     * The nodes of a deformable body inside a world-aligned box at the start, welded to an anchor.
     *
     * @param anchor a link or the world
     * @param minX   the box's lower corner, world frame, m
     * @param maxX   the box's upper corner, m
     */
    public record NodeWeld(Anchor anchor, double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
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
     * @param coordinates how a robot among its links is simulated
     * @param controllers Gazebo's joint-driving systems read from its plugins
     * @param selfCollide whether its links collide with each other (SDF {@code <self_collide>}, URDF
     *                 {@code <gazebo><self_collide>}); links joined by a joint never do
     */
    public record Model(String name, boolean isStatic, Pose pose, List<Link> links, List<Joint> joints, int line,
                        Coordinates coordinates, List<Controller> controllers, boolean selfCollide) {
        /**
         * Tandem's extension element of a model (SDF: in the model; URDF: in a robot-level gazebo
         * element) choosing its {@link Coordinates}: {@code joint} (the default), {@code maximal}
         * or {@code planar}
         */
        public static final String COORDINATES_ELEMENT = "tandem:coordinates";

        public Model {
            links = List.copyOf(links);
            joints = List.copyOf(joints);
            controllers = List.copyOf(controllers);
        }

        /** A model whose links do not collide with each other (SDF's and URDF's default). */
        public Model(String name, boolean isStatic, Pose pose, List<Link> links, List<Joint> joints, int line,
                     Coordinates coordinates, List<Controller> controllers) {
            this(name, isStatic, pose, links, joints, line, coordinates, controllers, false);
        }

        /** A model in the default coordinates, without controllers. */
        public Model(String name, boolean isStatic, Pose pose, List<Link> links, List<Joint> joints, int line) {
            this(name, isStatic, pose, links, joints, line, Coordinates.JOINT, List.of());
        }

        /** A model without controllers. */
        public Model(String name, boolean isStatic, Pose pose, List<Link> links, List<Joint> joints, int line,
                     Coordinates coordinates) {
            this(name, isStatic, pose, links, joints, line, coordinates, List.of());
        }
    }

    /**
     * One of Gazebo's joint-driving systems read from a model's {@code <plugin>} (gz-sim's
     * DiffDrive, JointPositionController and JointController), with the joints it drives (scoped
     * names inside the model).
     */
    public sealed interface Controller permits DiffDrive, JointPositionController, JointVelocityController {
        /** @return the file line of its plugin element */
        int line();
    }

    /**
     * gz-sim's DiffDrive: a twist (forward m/s, yaw rate rad/s) becomes wheel speeds
     * (v -+ w s / 2) / r on the left and right joints, which it commands as velocities.
     *
     * @param leftJoints      wheel joints on the left
     * @param rightJoints     wheel joints on the right
     * @param wheelSeparation s, m
     * @param wheelRadius     r, m
     */
    public record DiffDrive(List<String> leftJoints, List<String> rightJoints, double wheelSeparation, double wheelRadius,
                            int line) implements Controller {
        public DiffDrive {
            leftJoints = List.copyOf(leftJoints);
            rightJoints = List.copyOf(rightJoints);
        }
    }

    /**
     * gz-sim's JointPositionController: a joint held at a commanded position by a PD (here the
     * engine's implicit joint-space PD of a robot in joint coordinates).
     *
     * @param joint           the joint
     * @param pGain           N m/rad (N/m)
     * @param dGain           N m s/rad (N s/m)
     * @param initialPosition the command before any is given, rad or m
     */
    public record JointPositionController(String joint, double pGain, double dGain, double initialPosition, int line)
            implements Controller {
    }

    /**
     * gz-sim's JointController: a joint driven at a commanded velocity (here a velocity motor).
     *
     * @param joint           the joint
     * @param initialVelocity the command before any is given, rad/s or m/s
     */
    public record JointVelocityController(String joint, double initialVelocity, int line) implements Controller {
    }

    /** How the physics compiler steps a model with joints. */
    public enum Coordinates {
        /** a robot pinned to the world (a fixed joint from the world to its root) in joint coordinates; otherwise maximal */
        JOINT,
        /** free bodies joined by joint rows */
        MAXIMAL,
        /**
         * a wheeled mobile base in joint coordinates (shared/specs/physics-wave2.md 4.2): its root
         * link moves in the plane (x, y, yaw joints, height, roll and pitch fixed) and cannot slide
         * sideways (a no-slip row at its origin along its y axis); wheels are not simulated, the
         * base is driven by WorldRunner#setBaseVelocity
         */
        PLANAR
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
     * @param cameras    camera sensors on the link (SDF {@code <sensor type="camera">})
     */
    public record Link(String name, Pose pose, Inertial inertial, List<Collision> collisions, List<Visual> visuals, int line,
                       List<Camera> cameras) {
        public Link {
            collisions = List.copyOf(collisions);
            visuals = List.copyOf(visuals);
            cameras = List.copyOf(cameras);
        }

        /** A link without sensors. */
        public Link(String name, Pose pose, Inertial inertial, List<Collision> collisions, List<Visual> visuals, int line) {
            this(name, pose, inertial, collisions, visuals, line, List.of());
        }
    }

    /**
     * A camera sensor, as Gazebo's SDF describes it: it looks along +x of its frame, with +y to
     * the left of the image and +z up; square pixels, so the vertical field of view follows from
     * the horizontal one and the aspect ratio. Rendered by {@link io.tandem.world.robot.RayCastCamera}.
     *
     * @param name          the sensor's name
     * @param pose          its frame in the link frame (sensor pose, then the camera's own pose)
     * @param horizontalFov horizontal field of view, rad, in (0, pi)
     * @param width         image width, pixels, at least 1
     * @param height        image height, pixels, at least 1
     * @param near          near clip distance along the optical axis, m, greater than 0
     * @param far           far clip distance, m, greater than near
     * @param updateRate    frames per second of simulated time (SDF update_rate; 0: every iteration)
     * @param line          line of the sensor element in the source
     */
    public record Camera(String name, Pose pose, double horizontalFov, int width, int height, double near, double far,
                         double updateRate, int line) {
        /** the most pixels of an image (3 bytes each, held twice by a camera device) */
        public static final long MAX_PIXELS = 8192L * 8192L;

        /** Validates the values. */
        public Camera {
            if (!(horizontalFov > 0 && horizontalFov < Math.PI)) {
                throw new IllegalArgumentException("camera '" + name + "': horizontal_fov must be in (0, pi) rad, got "
                        + horizontalFov);
            }
            if (width < 1 || height < 1 || (long) width * height > MAX_PIXELS) {
                throw new IllegalArgumentException("camera '" + name + "': image size must be at least 1 x 1 pixels and at"
                        + " most " + MAX_PIXELS + " pixels (8192 x 8192), got " + width + " x " + height);
            }
            if (!(near > 0) || !(far > near) || Double.isInfinite(far)) {
                throw new IllegalArgumentException("camera '" + name + "': clip needs 0 < near < far (finite), got near "
                        + near + " m, far " + far + " m");
            }
            if (!(updateRate >= 0) || Double.isInfinite(updateRate)) {
                throw new IllegalArgumentException("camera '" + name + "': update_rate must be finite and >= 0 Hz, got "
                        + updateRate);
            }
        }

        /**
         * @param imageWidth  pixels, at least 1
         * @param imageHeight pixels, at least 1
         * @return this camera with another image size (the same field of view)
         */
        public Camera withImageSize(int imageWidth, int imageHeight) {
            return new Camera(name, pose, horizontalFov, imageWidth, imageHeight, near, far, updateRate, line);
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
        /** @return whether the tensor is positive definite (Sylvester: its leading minors are > 0), as a moving body's must be */
        public boolean positiveDefinite() {
            double minor2 = ixx * iyy - ixy * ixy;
            double det = ixx * (iyy * izz - iyz * iyz) - ixy * (ixy * izz - iyz * ixz) + ixz * (ixy * iyz - iyy * ixz);
            return ixx > 0 && minor2 > 0 && det > 0;
        }
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
     * @param effort  SDF limit effort: the most torque (N m) or force (N) the joint's motor applies;
     *                +infinity when the file gives none (SDF's -1)
     * @param velocityLimit SDF limit velocity: the most speed (rad/s or m/s) a motor is commanded;
     *                +infinity when the file gives none (SDF's -1)
     * @param motor   whether the joint has a velocity motor (Tandem's {@code <tandem:velocity_motor/>}
     *                in the joint; its force bound is {@code effort}); its target speed starts at 0
     */
    public record Joint(String name, JointKind kind, String parent, String child, Pose pose,
                        double axisX, double axisY, double axisZ, double lower, double upper, double damping, int line,
                        double effort, double velocityLimit, boolean motor, double friction) {
        /** Tandem's SDF extension element in a joint: a velocity motor bounded by the axis limit's effort */
        public static final String MOTOR_ELEMENT = "tandem:velocity_motor";

        /** A joint without Coulomb friction. */
        public Joint(String name, JointKind kind, String parent, String child, Pose pose, double axisX, double axisY,
                     double axisZ, double lower, double upper, double damping, int line, double effort, double velocityLimit,
                     boolean motor) {
            this(name, kind, parent, child, pose, axisX, axisY, axisZ, lower, upper, damping, line, effort, velocityLimit, motor, 0);
        }


        /** A joint without a motor and without effort or velocity limits. */
        public Joint(String name, JointKind kind, String parent, String child, Pose pose, double axisX, double axisY,
                     double axisZ, double lower, double upper, double damping, int line) {
            this(name, kind, parent, child, pose, axisX, axisY, axisZ, lower, upper, damping, line,
                    Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, false);
        }
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
