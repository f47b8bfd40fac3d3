-- Demo query database for the NL->SQL service: a small shop with its staff.
-- One script for both databases: MariaDB/MySQL and H2 2.3 in MySQL mode accept the same
-- column COMMENT '...' and table options ENGINE/DEFAULT CHARSET/COMMENT='...'.
-- Unique indexes are separate CREATE UNIQUE INDEX statements because H2 renames a UNIQUE KEY
-- declared inside CREATE TABLE (idx_email -> idx_email_INDEX_6); this way both keep the name.
-- A foreign key comes after an index that covers its column, else H2 adds an index of its own (MariaDB drops
-- its automatic one once a covering index exists), and the two databases would list different indexes.
-- employees.user_id deliberately has no foreign key: the catalog infers that relationship from the name.
-- Statements end with ';' at the end of a line (DemoDatabase splits on that).

CREATE TABLE departments (
    id INT NOT NULL AUTO_INCREMENT COMMENT '部门ID',
    name VARCHAR(100) NOT NULL COMMENT '部门名称',
    parent_id INT NULL COMMENT '上级部门ID',
    location VARCHAR(100) NOT NULL DEFAULT '' COMMENT '办公地点',
    created_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP COMMENT '创建时间',
    PRIMARY KEY (id),
    KEY idx_departments_parent (parent_id),
    CONSTRAINT fk_departments_parent FOREIGN KEY (parent_id) REFERENCES departments (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COMMENT='部门信息表';
CREATE UNIQUE INDEX uk_departments_name ON departments (name);

CREATE TABLE users (
    id BIGINT NOT NULL AUTO_INCREMENT COMMENT '用户ID',
    name VARCHAR(100) NOT NULL DEFAULT '' COMMENT '用户姓名',
    email VARCHAR(255) NOT NULL DEFAULT '' COMMENT '邮箱地址',
    phone VARCHAR(20) NULL COMMENT '手机号码',
    status TINYINT NOT NULL DEFAULT 1 COMMENT '状态：1正常，0禁用',
    created_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP COMMENT '注册时间',
    last_login_at DATETIME NULL COMMENT '最后登录时间',
    PRIMARY KEY (id),
    KEY idx_users_created (created_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COMMENT='用户信息表';
CREATE UNIQUE INDEX idx_email ON users (email);

CREATE TABLE user_profiles (
    id BIGINT NOT NULL AUTO_INCREMENT COMMENT '资料ID',
    user_id BIGINT NOT NULL COMMENT '用户ID',
    gender VARCHAR(10) NULL COMMENT '性别',
    birthday DATE NULL COMMENT '出生日期',
    city VARCHAR(50) NULL COMMENT '所在城市',
    bio VARCHAR(500) NULL COMMENT '个人简介',
    PRIMARY KEY (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COMMENT='用户详细信息表';
CREATE UNIQUE INDEX uk_user_profiles_user ON user_profiles (user_id);
ALTER TABLE user_profiles ADD CONSTRAINT fk_user_profiles_user FOREIGN KEY (user_id) REFERENCES users (id);

CREATE TABLE employees (
    id INT NOT NULL AUTO_INCREMENT COMMENT '员工ID',
    department_id INT NOT NULL COMMENT '所属部门ID',
    user_id BIGINT NULL COMMENT '关联用户ID',
    manager_id INT NULL COMMENT '直属上级员工ID',
    name VARCHAR(100) NOT NULL COMMENT '员工姓名',
    title VARCHAR(100) NOT NULL DEFAULT '' COMMENT '职位',
    salary DECIMAL(10,2) NOT NULL DEFAULT 0.00 COMMENT '月薪（元）',
    hire_date DATE NOT NULL COMMENT '入职日期',
    PRIMARY KEY (id),
    KEY idx_employees_department (department_id),
    KEY idx_employees_manager (manager_id),
    CONSTRAINT fk_employees_department FOREIGN KEY (department_id) REFERENCES departments (id),
    CONSTRAINT fk_employees_manager FOREIGN KEY (manager_id) REFERENCES employees (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COMMENT='员工信息表';

CREATE TABLE products (
    id INT NOT NULL AUTO_INCREMENT COMMENT '商品ID',
    sku VARCHAR(32) NOT NULL COMMENT '商品编码',
    name VARCHAR(200) NOT NULL COMMENT '商品名称',
    category VARCHAR(50) NOT NULL COMMENT '商品类别',
    price DECIMAL(10,2) NOT NULL COMMENT '单价（元）',
    stock INT NOT NULL DEFAULT 0 COMMENT '库存数量',
    created_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP COMMENT '上架时间',
    PRIMARY KEY (id),
    KEY idx_products_category (category)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COMMENT='商品信息表';
CREATE UNIQUE INDEX uk_products_sku ON products (sku);

CREATE TABLE orders (
    id BIGINT NOT NULL AUTO_INCREMENT COMMENT '订单ID',
    order_no VARCHAR(32) NOT NULL COMMENT '订单编号',
    user_id BIGINT NOT NULL COMMENT '用户ID',
    status VARCHAR(20) NOT NULL DEFAULT 'pending' COMMENT '订单状态：pending待支付，paid已支付，shipped已发货，completed已完成，cancelled已取消',
    total_amount DECIMAL(12,2) NOT NULL DEFAULT 0.00 COMMENT '订单总金额（元）',
    created_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP COMMENT '下单时间',
    paid_at DATETIME NULL COMMENT '支付时间',
    PRIMARY KEY (id),
    KEY idx_orders_user (user_id),
    KEY idx_orders_created (created_at),
    CONSTRAINT fk_orders_user FOREIGN KEY (user_id) REFERENCES users (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COMMENT='订单信息表';
CREATE UNIQUE INDEX uk_orders_order_no ON orders (order_no);

CREATE TABLE order_items (
    id BIGINT NOT NULL AUTO_INCREMENT COMMENT '明细ID',
    order_id BIGINT NOT NULL COMMENT '订单ID',
    product_id INT NOT NULL COMMENT '商品ID',
    quantity INT NOT NULL DEFAULT 1 COMMENT '购买数量',
    unit_price DECIMAL(10,2) NOT NULL COMMENT '成交单价（元）',
    PRIMARY KEY (id),
    KEY idx_order_items_order (order_id),
    KEY idx_order_items_product (product_id),
    CONSTRAINT fk_order_items_order FOREIGN KEY (order_id) REFERENCES orders (id),
    CONSTRAINT fk_order_items_product FOREIGN KEY (product_id) REFERENCES products (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COMMENT='订单明细表';

CREATE TABLE login_logs (
    id BIGINT NOT NULL AUTO_INCREMENT COMMENT '日志ID',
    user_id BIGINT NOT NULL COMMENT '用户ID',
    ip VARCHAR(45) NOT NULL COMMENT '登录IP',
    success TINYINT NOT NULL DEFAULT 1 COMMENT '是否成功：1成功，0失败',
    login_at DATETIME NOT NULL COMMENT '登录时间',
    PRIMARY KEY (id),
    KEY idx_login_logs_user (user_id),
    CONSTRAINT fk_login_logs_user FOREIGN KEY (user_id) REFERENCES users (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COMMENT='登录日志表';
