/** Tandem's worlds: SDF and URDF loading, levels and performers, the world runner. Only the API package is exported. */
module io.tandem.world {
    requires transitive io.tandem.physics;
    requires transitive io.tandem.cosim;
    requires java.xml;
    requires org.slf4j;
    exports io.tandem.world;
    exports io.tandem.world.sdf;
    exports io.tandem.world.urdf;
    exports io.tandem.world.distributed;
    exports io.tandem.world.robot;
    exports io.tandem.world.mesh;
    exports io.tandem.world.record;
    exports io.tandem.world.view;
}
